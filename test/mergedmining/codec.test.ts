/** u32le and u64le: little-endian bytes, as a DataView writes them, at every byte boundary; out-of-range values refused. */
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { u32le, u64le } from '../../src/mergedmining/codec.ts';

const viaView = (bytes: number, write: (v: DataView) => void) => {
  const out = new Uint8Array(bytes);
  write(new DataView(out.buffer));
  return out;
};

test('u32le at zero, each byte boundary, the largest value and random values', () => {
  const values = [0, 0xffffffff];
  for (let bits = 0; bits < 32; bits++) values.push(2 ** bits, 2 ** bits - 1);
  for (let i = 0; i < 200; i++) values.push(randomBytes(4).readUInt32BE());
  for (const v of values) assert.equal(u32le(v), viaView(4, (d) => d.setUint32(0, v, true)), `${v}`);
  for (const bad of [-1, 2 ** 32, 1.5]) assert.throws(() => u32le(bad), RangeError);
});

test('u64le at zero, each byte boundary, the largest value and random values', () => {
  const values = [0n, (1n << 64n) - 1n];
  for (let bits = 0n; bits < 64n; bits++) values.push(1n << bits, (1n << bits) - 1n);
  for (let i = 0; i < 200; i++) values.push(randomBytes(8).readBigUInt64BE());
  for (const v of values) assert.equal(u64le(v), viaView(8, (d) => d.setBigUint64(0, v, true)), `${v}`);
  for (const bad of [-1n, 1n << 64n]) assert.throws(() => u64le(bad), RangeError);
});

test.run();

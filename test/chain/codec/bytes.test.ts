/**
 * uintBytes gives @ethereumjs/util's bigIntToUnpaddedBytes bytes: zero, every byte-length boundary, odd hex lengths, numbers, random values.
 * fromHex gives its hexToBytes bytes (empty, odd lengths, either case, long data) and refuses what it refuses.
 * hex gives bytesToHex's text for short and long byte strings, new arrays and views; be64 eight big-endian bytes.
 */
import { bigIntToUnpaddedBytes, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { be64, fromHex, hex, uintBytes } from '../../../src/chain/codec/bytes.ts';

const same = (n: bigint) => assert.is(bytesToHex(uintBytes(n)), bytesToHex(bigIntToUnpaddedBytes(n)), `${n}`);

test('zero is empty, and each power of 2^8 and its neighbours', () => {
  assert.is(uintBytes(0n).length, 0);
  for (let bits = 0n; bits <= 320n; bits += 4n) for (const d of [-1n, 0n, 1n]) if ((1n << bits) + d > 0n) same((1n << bits) + d);
});

test('numbers give the bytes of their bigint', () => {
  for (const n of [0, 1, 15, 16, 255, 256, 30_000_000, Number.MAX_SAFE_INTEGER]) assert.is(bytesToHex(uintBytes(n)), bytesToHex(bigIntToUnpaddedBytes(BigInt(n))));
});

test('random values of 1 to 40 bytes', () => {
  for (let i = 0; i < 2_000; i++) same(BigInt(`0x${randomBytes(1 + (i % 40)).toString('hex')}`));
});

test('fromHex decodes what hexToBytes decodes, into arrays of their own', () => {
  const inputs = ['0x', '0x0', '0x1', '0xabc', '0xABCDEF', '0xaBcD01', `0x${randomBytes(4_700).toString('hex')}`];
  for (let i = 0; i < 200; i++) inputs.push(`0x${randomBytes(i).toString('hex').slice(i % 2)}`);
  for (const h of inputs) {
    const bytes = fromHex(h);
    assert.equal(bytes, hexToBytes(h as `0x${string}`), h.slice(0, 40));
    assert.is(bytes.byteOffset, 0);
    assert.is(bytes.buffer.byteLength, bytes.length, 'not a view into a shared pool');
  }
});

test('hex gives bytesToHex text for every length to 130 bytes, of new arrays and of views into a larger buffer', () => {
  const pool = randomBytes(200);
  for (let n = 0; n <= 130; n++) {
    const view = pool.subarray(n % 7, (n % 7) + n);
    const own = Uint8Array.from(view);
    assert.is(hex(own), bytesToHex(own), `${n} bytes`);
    assert.is(hex(view), bytesToHex(view), `a view of ${n} bytes`);
    assert.equal(own, Uint8Array.from(view), 'the bytes read are left as they were');
  }
});

test('be64 gives eight big-endian bytes, each call an array of its own', () => {
  const values = [0n, 1n, 0x0102030405060708n, (1n << 64n) - 1n];
  const encoded = values.map(be64);
  values.forEach((v, i) => assert.is(bytesToHex(encoded[i]!), `0x${v.toString(16).padStart(16, '0')}`));
});

test('fromHex refuses what is not 0x-prefixed hex', () => {
  for (const h of ['', 'ab', '0X12', '0xg0', '0x12zz', '0x1 ', ' 0x12', '0x12\n', `0x${'ab'.repeat(100)}g`]) {
    assert.throws(() => hexToBytes(h as `0x${string}`), `the library refuses ${JSON.stringify(h)}`);
    assert.throws(() => fromHex(h), /not 0x-prefixed hex/, JSON.stringify(h));
  }
});

test.run();

/** encodeRlp gives @ethereumjs/rlp's bytes for byte strings and nested lists, at every length boundary, and rlpListPrefix the head of its lists. */
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeRlp, rlpListPrefix, type RlpInput } from '../../../src/chain/codec/rlp.ts';
import { random } from '../../helpers/random.ts';

const same = (item: RlpInput, what: string) => assert.is(bytesToHex(encodeRlp(item)), bytesToHex(RLP.encode(item as never)), what);
const bytes = (n: number, fill = 0xab) => new Uint8Array(n).fill(fill);

test('byte strings: single bytes below and from 0x80, empty, and the lengths around each prefix size', () => {
  for (const b of [0, 1, 0x7f, 0x80, 0xff]) same(Uint8Array.of(b), `byte ${b}`);
  for (const n of [0, 2, 55, 56, 57, 255, 256, 257, 65_535, 65_536, 70_000]) same(bytes(n), `${n} bytes`);
  same(bytes(1 << 24), '2^24 bytes');
});

test('lists: empty, nested, and payloads around each prefix size', () => {
  same([], 'empty list');
  same([[], [[]], [Uint8Array.of(1), [bytes(0)]]], 'nested');
  for (const n of [54, 55, 56, 254, 255, 256, 65_534, 65_535, 65_536]) same([bytes(n - 1)], `payload of ${n}`);
  same(Array.from({ length: 17 }, (_, i) => bytes(i ? 32 : 0, i)), 'a branch node');
});

test('a list prefix is the head of the list it frames, for payloads around each prefix size', () => {
  for (const k of [0, 1, 2, 53, 54, 55, 56, 253, 254, 255, 65_532, 65_533, 65_534, 1 << 24]) {
    const payload = RLP.encode(bytes(k));
    const list = RLP.encode([bytes(k)]);
    assert.is(bytesToHex(rlpListPrefix(payload.length)), bytesToHex(list.subarray(0, list.length - payload.length)), `payload of ${payload.length}`);
  }
});

test('random nested lists of random byte strings', () => {
  const next = random(7);
  const item = (depth: number): RlpInput => (depth > 0 && next(3) === 0
    ? Array.from({ length: next(6) }, () => item(depth - 1))
    : Uint8Array.from({ length: [0, 1, 1, 2, 31, 55, 56, 300][next(8)]! }, () => next(256)));
  for (let i = 0; i < 2_000; i++) same(item(4), `case ${i}`);
});

test.run();

/** uintBytes gives @ethereumjs/util's bigIntToUnpaddedBytes bytes: zero, every byte-length boundary, odd hex lengths, numbers, random values. */
import { bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { uintBytes } from '../../../src/chain/codec/bytes.ts';

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

test.run();

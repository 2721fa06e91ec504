/** wordBytes gives a stack word's 32 big-endian bytes, as the library's bigIntToBytes padded to 32 does, each call an array of its own. */
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { wordBytes, wordOf } from '../../../../src/chain/execution/interpreter/words.ts';

const library = (w: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(w), 32));

test('zero, every power of two and its neighbours, the largest word, random words', () => {
  const words = [0n, (1n << 256n) - 1n];
  for (let bits = 0n; bits < 256n; bits++) words.push(1n << bits, (1n << bits) - 1n, (1n << bits) + 1n);
  for (let i = 0; i < 500; i++) words.push(BigInt(`0x${randomBytes(1 + (i % 32)).toString('hex')}`));
  for (const w of words) {
    assert.is(bytesToHex(wordBytes(w)), library(w), `${w}`);
    assert.is(wordOf(wordBytes(w)), w, `${w} back`);
  }
});

test('each call gives an array of its own', () => {
  const one = wordBytes(1n);
  const max = wordBytes((1n << 256n) - 1n);
  assert.is(bytesToHex(one), library(1n));
  assert.is(bytesToHex(max), library((1n << 256n) - 1n));
});

test.run();

/** keccak256 gives Keccak-256 (not SHA3-256): known digests, and @noble/hashes' digest for every length around the sponge's 136-byte rate. */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keccak256 } from '../../../src/chain/codec/keccak.ts';

test('known digests: the empty input, "abc", the empty trie root', () => {
  assert.is(bytesToHex(keccak256(new Uint8Array(0))), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  assert.is(bytesToHex(keccak256(utf8ToBytes('abc'))), '0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
  assert.is(bytesToHex(keccak256(Uint8Array.of(0x80))), '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
});

test('every length from 0 to 600 bytes, of arrays of their own and views into a larger buffer, as @noble/hashes hashes them', () => {
  const pool = randomBytes(700);
  for (let n = 0; n <= 600; n++) {
    const view = pool.subarray(n % 50, (n % 50) + n);
    assert.is(bytesToHex(keccak256(view)), bytesToHex(keccak_256(view)), `${n} bytes`);
    const own = Uint8Array.from(view);
    assert.is(bytesToHex(keccak256(own)), bytesToHex(keccak_256(view)), `an array of its own, ${n} bytes`);
    assert.equal(own, Uint8Array.from(view), 'the input is left as it was');
  }
});

test('a digest is its own array: the next hash does not change it', () => {
  const first = keccak256(utf8ToBytes('first'));
  const copy = first.slice();
  keccak256(utf8ToBytes('second'));
  assert.equal(first, copy);
});

test.run();

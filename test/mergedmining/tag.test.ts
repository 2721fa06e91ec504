import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { findTaggedHash, MM_TAG, SHA256_IV } from '../../src/mergedmining/index.js';

const Tag = suite('tag');

const hashA = new Uint8Array(32).fill(0xaa);
const hashB = new Uint8Array(32).fill(0xbb);
const pad = (n: number) => new Uint8Array(n).fill(0x01);

/** A compressed coinbase with the given tail; the state is never read by findTaggedHash. */
function compressed(tail: Uint8Array, hashedBytes = 0n): Uint8Array {
  const count = new Uint8Array(8);
  new DataView(count.buffer).setBigUint64(0, hashedBytes, false);
  return concatBytes(count, SHA256_IV, tail);
}

Tag('with two tags the last one counts', () => {
  const tail = concatBytes(pad(3), MM_TAG, hashA, MM_TAG, hashB, pad(4));
  assert.is(bytesToHex(findTaggedHash(compressed(tail))), bytesToHex(hashB));
});

Tag('the tag must start within the first 64 bytes of the tail', () => {
  assert.is(findTaggedHash(compressed(concatBytes(pad(63), MM_TAG, hashA, pad(4)))).length, 32);
  assert.throws(() => findTaggedHash(compressed(concatBytes(pad(64), MM_TAG, hashA, pad(4)))), /first 64 bytes/);
});

Tag('an earlier tag inside the window does not rescue a last tag beyond it', () => {
  const tail = concatBytes(MM_TAG, hashA, pad(40), MM_TAG, hashB, pad(4));
  assert.throws(() => findTaggedHash(compressed(tail)), /first 64 bytes/);
});

Tag('at most 128 bytes may follow the hash', () => {
  assert.is(bytesToHex(findTaggedHash(compressed(concatBytes(MM_TAG, hashA, pad(128))))), bytesToHex(hashA));
  assert.throws(() => findTaggedHash(compressed(concatBytes(MM_TAG, hashA, pad(129)))), /more than 128 bytes/);
});

Tag('the whole coinbase must be longer than 64 bytes', () => {
  const tail64 = concatBytes(MM_TAG, hashA, pad(23));
  assert.is(tail64.length, 64);
  assert.throws(() => findTaggedHash(compressed(tail64)), /longer than 64 bytes/);
  assert.is(findTaggedHash(compressed(concatBytes(tail64, pad(1)))).length, 32);
  assert.is(findTaggedHash(compressed(tail64, 64n)).length, 32);
});

Tag('missing tag, truncated hash, tag only in the hashed part', () => {
  assert.throws(() => findTaggedHash(compressed(pad(100))), /tag not found/);
  assert.throws(() => findTaggedHash(compressed(concatBytes(pad(30), MM_TAG, hashA.subarray(0, 31)))), /truncated/);
  assert.throws(() => findTaggedHash(new Uint8Array(39)), /at least 40 bytes/);
});

Tag.run();

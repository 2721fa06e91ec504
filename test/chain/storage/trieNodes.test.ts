/** fromCompact reads back the key path and leaf flag that leafNode and extensionNode encode, for every path length of a 32-byte key. */
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extensionNode, fromCompact, leafNode, toNibbles } from '../../../src/chain/storage/trieNodes.ts';

test('every path length from 0 to 64 nibbles, leaves and extensions, odd and even', () => {
  const nibbles = toNibbles(randomBytes(32));
  for (let n = 0; n <= 64; n++) {
    const path = nibbles.slice(64 - n);
    const leaf = fromCompact(leafNode(path, Uint8Array.of(1))[0] as Uint8Array);
    assert.equal(leaf, { path, leaf: true }, `a leaf of ${n} nibbles`);
    const extension = fromCompact(extensionNode(path, new Uint8Array(32))[0] as Uint8Array);
    assert.equal(extension, { path, leaf: false }, `an extension of ${n} nibbles`);
  }
});

test('known encodings: an odd leaf, an even extension (Ethereum yellow paper, appendix C)', () => {
  assert.equal(fromCompact(Uint8Array.of(0x3f, 0x1c)), { path: Uint8Array.of(15, 1, 12), leaf: true });
  assert.equal(fromCompact(Uint8Array.of(0x00, 0x01, 0x23)), { path: Uint8Array.of(0, 1, 2, 3), leaf: false });
});

test.run();

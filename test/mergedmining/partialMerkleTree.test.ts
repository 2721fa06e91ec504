import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { buildPartialMerkleTree, merkleBranch, merkleRoot, parsePartialMerkleTree, reverseBytes } from '../../src/mergedmining/index.js';
import { B100000_BRANCH_RAW, B100000_MERKLE_ROOT_DISPLAY, B100000_PARTIAL_MERKLE_TREE, hex } from './vectors.js';

const PartialTree = suite('partialMerkleTree');

const random32 = () => new Uint8Array(randomBytes(32));

PartialTree('block 100000: the coinbase branch gives the documented bytes exactly', () => {
  const bytes = buildPartialMerkleTree(4, B100000_BRANCH_RAW.map(hex));
  assert.is(bytesToHex(bytes), `0x${B100000_PARTIAL_MERKLE_TREE}`);
});

PartialTree('block 100000: parsing gives the header root and the coinbase as the only match', () => {
  const { root, matched, txCount } = parsePartialMerkleTree(hex(B100000_PARTIAL_MERKLE_TREE));
  assert.is(bytesToHex(reverseBytes(root)), `0x${B100000_MERKLE_ROOT_DISPLAY}`);
  assert.is(txCount, 4);
  assert.equal(matched.map(bytesToHex), [`0x${B100000_BRANCH_RAW[0]}`]);
});

PartialTree('round trip for many tree sizes, odd ones included', () => {
  for (const n of [1, 2, 3, 5, 6, 7, 9, 16, 17, 100]) {
    const txids = Array.from({ length: n }, random32);
    const bytes = buildPartialMerkleTree(n, [txids[0], ...merkleBranch(txids)]);
    const { root, matched } = parsePartialMerkleTree(bytes);
    assert.is(bytesToHex(root), bytesToHex(merkleRoot(txids)), `${n} txs`);
    assert.equal(matched.map(bytesToHex), [bytesToHex(txids[0])]);
  }
});

PartialTree('build refuses a branch of the wrong length for the tx count', () => {
  assert.throws(() => buildPartialMerkleTree(4, [random32(), random32()]), /needs 3 branch hashes/);
  assert.throws(() => buildPartialMerkleTree(0, [random32()]), /tx count/);
});

PartialTree('declared sizes must match the bytes exactly', () => {
  const bytes = hex(B100000_PARTIAL_MERKLE_TREE);
  assert.throws(() => parsePartialMerkleTree(concatBytes(bytes, Uint8Array.of(0))), /trailing/);
  for (let cut = 0; cut < bytes.length; cut++) {
    assert.throws(() => parsePartialMerkleTree(bytes.subarray(0, cut)), /truncated|exceeds/, `cut at ${cut}`);
  }
  // Two flag bytes where one suffices.
  const extraFlagByte = concatBytes(bytes.subarray(0, -2), Uint8Array.of(2, 0x07, 0x00));
  assert.throws(() => parsePartialMerkleTree(extraFlagByte), /unused flag bytes/);
  // Flags that stop the walk before the last hash.
  const unusedHash = concatBytes(bytes.subarray(0, -1), Uint8Array.of(0x00));
  assert.throws(() => parsePartialMerkleTree(unusedHash), /unused hashes/);
  // Tx count 0.
  const zeroTxs = bytes.slice();
  zeroTxs[0] = 0;
  assert.throws(() => parsePartialMerkleTree(zeroTxs), /zero transactions/);
});

PartialTree('a node with two identical children is refused', () => {
  const h = random32();
  assert.throws(() => parsePartialMerkleTree(buildPartialMerkleTree(2, [h, h])), /identical children/);
});

PartialTree.run();

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { applyForkDetection, findTaggedHash, forkDetectionData } from '../../src/mergedmining/index.js';
import { decodeRegtestHeader, hex, R733_RLP, R734_RLP, T436_BASE_RLP, T436_HASH_FOR_MM } from './vectors.js';

const ForkDetection = suite('forkDetection');

/** Parent-chain header hashes whose first raw byte is given per height; unknown heights → undefined. */
const hashesWithFirstBytes = (firstByte: Map<bigint, number>) => (height: bigint) => {
  const b = firstByte.get(height);
  return b === undefined ? undefined : new Uint8Array(32).fill(0xee).fill(b, 0, 1);
};

/** The CPV seen in the regtest coinbases of vectors.ts, on heights 704, 640, …, 320 (parent 733, s = 704). */
const regtestCpv = new Map([0x39, 0x51, 0xe9, 0x8f, 0xd8, 0x3e, 0xea].map((b, i) => [704n - 64n * BigInt(i), b]));

ForkDetection('regtest block 734: CPV from heights 704…320, uncle sum, height big-endian', () => {
  const data = forkDetectionData({ parentNumber: 733n, blockNumber: 734n, parentHeaderHashes: hashesWithFirstBytes(regtestCpv), uncleCountSum: 0 });
  const tagged = findTaggedHash(decodeRegtestHeader(R734_RLP).coinbase);
  assert.is(bytesToHex(data), bytesToHex(tagged.subarray(20)));
  assert.is(bytesToHex(data), '0x3951e98fd83eea00000002de');
});

ForkDetection('regtest block 734: keccak of the 16 base fields with the data applied is the tagged hash', () => {
  for (const [rlp, number] of [[R733_RLP, 733n], [R734_RLP, 734n]] as const) {
    const { base, coinbase } = decodeRegtestHeader(rlp);
    const tagged = findTaggedHash(coinbase);
    const baseHash = keccak_256(RLP.encode(base));
    assert.is(bytesToHex(applyForkDetection(baseHash, tagged.subarray(20), number)), bytesToHex(tagged));
    assert.is.not(bytesToHex(baseHash), bytesToHex(tagged));
  }
});

ForkDetection('below block 449: no data, and the base hash is kept (testnet block 436)', () => {
  const baseHash = keccak_256(hex(T436_BASE_RLP));
  assert.is(bytesToHex(baseHash), `0x${T436_HASH_FOR_MM}`);
  assert.is(bytesToHex(applyForkDetection(baseHash, new Uint8Array(12).fill(9), 436n)), `0x${T436_HASH_FOR_MM}`);
  assert.is(forkDetectionData({ parentNumber: 447n, blockNumber: 448n, parentHeaderHashes: () => undefined, uncleCountSum: 3 }).length, 0);
});

ForkDetection('block 449 is the first with data; uncle sum capped at 255', () => {
  const heights = new Map([448n, 384n, 320n, 256n, 192n, 128n, 64n].map((h, i) => [h, i + 1]));
  const data = forkDetectionData({ parentNumber: 448n, blockNumber: 449n, parentHeaderHashes: hashesWithFirstBytes(heights), uncleCountSum: 1000 });
  assert.is(bytesToHex(data), '0x01020304050607ff000001c1');
  const base = new Uint8Array(32).fill(0x77);
  assert.is(bytesToHex(applyForkDetection(base, data, 449n)), `0x${'77'.repeat(20)}01020304050607ff000001c1`);
});

ForkDetection('errors: unknown parent-chain header, wrong parent, bad data length', () => {
  const partial = new Map(regtestCpv);
  partial.delete(320n);
  assert.throws(
    () => forkDetectionData({ parentNumber: 733n, blockNumber: 734n, parentHeaderHashes: hashesWithFirstBytes(partial), uncleCountSum: 0 }),
    /main-chain block 320/,
  );
  assert.throws(() => forkDetectionData({ parentNumber: 733n, blockNumber: 735n, parentHeaderHashes: () => undefined, uncleCountSum: 0 }), /not the child/);
  assert.throws(() => applyForkDetection(new Uint8Array(32), new Uint8Array(11), 500n), /12 bytes/);
});

ForkDetection.run();

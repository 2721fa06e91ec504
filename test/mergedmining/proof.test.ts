import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { concatBytes } from '@ethereumjs/util';
import {
  buildTaggedCoinbase,
  compressCoinbase,
  findTaggedHash,
  merkleRoot,
  parentHeaderHashValue,
  parentTxid,
  rskip92Proof,
  serializeParentHeader,
  serializeParentTx,
  solveParentHeader,
  targetFromDifficulty,
  verifyMergedMiningProof,
  type MergedMiningProof,
  MM_TAG,
} from '../../src/mergedmining/index.js';
import { decodeRegtestHeader, hex, R733_RLP, R734_RLP, T436_COINBASE, T436_HASH_FOR_MM, T436_HEADER, T436_PROOF } from './vectors.js';

const Proof = suite('verifyMergedMiningProof');

const testnet436 = (): MergedMiningProof => ({
  header: hex(T436_HEADER),
  coinbase: hex(T436_COINBASE),
  proof: hex(T436_PROOF),
  hashForMergedMining: hex(T436_HASH_FOR_MM),
  difficulty: 0x1aa2b738n,
});

const flip = (bytes: Uint8Array, at: number) => {
  const copy = bytes.slice();
  copy[at] ^= 0x01;
  return copy;
};

const reasonOf = (p: MergedMiningProof) => {
  const verdict = verifyMergedMiningProof(p);
  return verdict.ok ? 'ok' : verdict.reason;
};

/** Seals a full coinbase (plus two other txs) into a solved difficulty-1 parent header. */
function sealed(fullCoinbase: Uint8Array, hashForMergedMining: Uint8Array): MergedMiningProof {
  const txids = [parentTxid(fullCoinbase), new Uint8Array(32).fill(3), new Uint8Array(32).fill(4)];
  const template = { version: 0x20000000, prevHash: new Uint8Array(32), merkleRoot: merkleRoot(txids), time: 1_700_000_000, bits: 0x207fffff, nonce: 0 };
  const header = solveParentHeader(template, targetFromDifficulty(1n));
  if (!header) throw new Error('no nonce found');
  return { header: serializeParentHeader(header), coinbase: compressCoinbase(fullCoinbase), proof: rskip92Proof(txids), hashForMergedMining, difficulty: 1n };
}

Proof('testnet block 436 is valid', () => {
  assert.equal(verifyMergedMiningProof(testnet436()), { ok: true });
});

Proof('regtest blocks 733 and 734 (empty proof, fork-detection bytes in the tag) are valid at difficulty 1', () => {
  for (const rlp of [R733_RLP, R734_RLP]) {
    const { header, coinbase, proof } = decodeRegtestHeader(rlp);
    assert.is(proof.length, 0);
    assert.equal(verifyMergedMiningProof({ header, coinbase, proof, hashForMergedMining: findTaggedHash(coinbase), difficulty: 1n }), { ok: true });
  }
});

Proof('a flipped header byte breaks the proof of work', () => {
  const p = testnet436();
  for (const at of [0, 10, 40, 70, 79]) {
    assert.is(reasonOf({ ...p, header: flip(p.header, at) }), 'parent header hash above target', `byte ${at}`);
  }
});

Proof('difficulty: the header hash itself is the largest target that passes', () => {
  const p = testnet436();
  const hashValue = parentHeaderHashValue(p.header);
  const justTooHard = (1n << 256n) / hashValue + 1n;
  assert.ok(targetFromDifficulty(justTooHard) < hashValue);
  assert.is(reasonOf({ ...p, difficulty: justTooHard }), 'parent header hash above target');
});

Proof('a flipped proof byte no longer leads to the Merkle root', () => {
  const p = testnet436();
  for (const at of [0, 31, 100, p.proof.length - 1]) {
    assert.is(reasonOf({ ...p, proof: flip(p.proof, at) }), 'merkle proof does not lead to the parent header merkle root', `byte ${at}`);
  }
});

Proof('a flipped coinbase byte: state, tail and tag each fail with their own reason', () => {
  const p = testnet436();
  const merkle = 'merkle proof does not lead to the parent header merkle root';
  assert.is(reasonOf({ ...p, coinbase: flip(p.coinbase, 20) }), merkle); // midstate
  assert.is(reasonOf({ ...p, coinbase: flip(p.coinbase, 45) }), merkle); // tail before the tag
  assert.is(reasonOf({ ...p, coinbase: flip(p.coinbase, p.coinbase.length - 1) }), merkle); // locktime
  assert.is(reasonOf({ ...p, coinbase: flip(p.coinbase, 40 + 60 + 9 + 5) }), 'tagged hash does not match hashForMergedMining');
  assert.is(reasonOf({ ...p, coinbase: flip(p.coinbase, 40 + 60) }), 'merged-mining tag not found');
  assert.match(reasonOf({ ...p, coinbase: flip(p.coinbase, 7) }), /multiple of 64/); // byte count 129
});

Proof('a different hashForMergedMining, including only its fork-detection bytes', () => {
  const p = testnet436();
  assert.is(reasonOf({ ...p, hashForMergedMining: flip(p.hashForMergedMining, 0) }), 'tagged hash does not match hashForMergedMining');
  assert.is(reasonOf({ ...p, hashForMergedMining: flip(p.hashForMergedMining, 31) }), 'tagged hash does not match hashForMergedMining');
  assert.is(reasonOf({ ...p, hashForMergedMining: new Uint8Array(20) }), 'hashForMergedMining must be 32 bytes');
});

Proof('malformed fields are refused before anything else', () => {
  const p = testnet436();
  assert.is(reasonOf({ ...p, proof: p.proof.subarray(1) }), 'merkle proof length must be a multiple of 32 bytes');
  assert.is(reasonOf({ ...p, proof: new Uint8Array(992) }), 'merkle proof longer than 960 bytes');
  assert.is(reasonOf({ ...p, header: p.header.subarray(0, 79) }), 'parent header must be 80 bytes');
  assert.is(reasonOf({ ...p, header: concatBytes(p.header, Uint8Array.of(0)) }), 'parent header must be 80 bytes');
  assert.is(reasonOf({ ...p, coinbase: new Uint8Array(0) }), 'compressed coinbase missing');
  assert.is(reasonOf({ ...p, coinbase: p.coinbase.subarray(0, 39) }), 'compressed coinbase shorter than 40 bytes');
});

Proof('with two tags, only the last one can be ours', () => {
  const ours = new Uint8Array(32).fill(0x0a);
  const other = new Uint8Array(32).fill(0x0b);
  const coinbase = buildTaggedCoinbase(other, { prefixBytes: concatBytes(MM_TAG, ours) });
  assert.is(reasonOf(sealed(coinbase, ours)), 'tag must be the last RSKBLOCK: in the coinbase tail');
  assert.is(reasonOf(sealed(coinbase, other)), 'ok');
});

Proof('more than 128 bytes after the tagged hash', () => {
  const ours = new Uint8Array(32).fill(0x0c);
  // The tag output first, then a 130-byte output script: 0 + 1 + 8 + 2 + 130 + 4 bytes follow the hash.
  const coinbase = serializeParentTx(
    {
      version: 1,
      inputs: [{ prevTxid: new Uint8Array(32), prevIndex: 0xffffffff, script: Uint8Array.of(1, 1), sequence: 0xffffffff, witness: [] }],
      outputs: [
        { value: 0n, script: concatBytes(Uint8Array.of(0x6a, 41), MM_TAG, ours) },
        { value: 0n, script: new Uint8Array(130).fill(0x51) },
      ],
      locktime: 0,
    },
    { witness: false },
  );
  assert.is(reasonOf(sealed(coinbase, ours)), 'more than 128 bytes follow the merged-mining hash');
});

Proof.run();

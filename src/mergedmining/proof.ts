/** The merged-mining proof-of-work check (docs/merged-mining.md "Checks"; RSKIP92/98/180 rules). */
import { concatBytes, equalsBytes } from '@ethereumjs/util';
import { coinbaseTxidFromCompressed, COMPRESSED_COINBASE_HEADER_BYTES, splitCompressedCoinbase } from './compressedCoinbase.js';
import { foldRskip92Proof, MAX_RSKIP92_PROOF_BYTES } from './merkle.js';
import { PARENT_HEADER_BYTES } from './parentHeader.js';
import { lastIndexOf, MM_TAG, tagPlacementError } from './tag.js';
import { meetsTarget, targetFromDifficulty } from './target.js';

/** The three merged-mining fields of a sidechain header, plus what they must commit to. */
export interface MergedMiningProof {
  /** Parent-chain header, 80 bytes. */
  header: Uint8Array;
  /** Compressed coinbase (compressedCoinbase.ts). */
  coinbase: Uint8Array;
  /** RSKIP92 proof: display-order siblings, bottom-up. */
  proof: Uint8Array;
  /** 32 raw bytes the coinbase must carry after its last tag (fork-detection bytes included). */
  hashForMergedMining: Uint8Array;
  /** Sidechain block difficulty; the target is floor(2^256 / max(difficulty, 3)). */
  difficulty: bigint;
}

/** Outcome of verifyMergedMiningProof; `reason` names the first check that failed. */
export type MergedMiningVerdict = { ok: true } | { ok: false; reason: string };

const fail = (reason: string): MergedMiningVerdict => ({ ok: false, reason });

/**
 * Runs the checks in order and stops at the first failure: proof format, header length, header
 * hash ≤ target, compressed-coinbase split, tag+hash placement (the last tag, tail offset < 64,
 * ≤ 128 bytes after the hash), coinbase length > 64, Merkle proof from the coinbase txid to the
 * header's Merkle root. The tagged 32 bytes must equal hashForMergedMining exactly.
 */
export function verifyMergedMiningProof(p: MergedMiningProof): MergedMiningVerdict {
  if (p.hashForMergedMining.length !== 32) return fail('hashForMergedMining must be 32 bytes');
  // Step 2: proof format.
  if (p.proof.length % 32 !== 0) return fail('merkle proof length must be a multiple of 32 bytes');
  if (p.proof.length > MAX_RSKIP92_PROOF_BYTES) return fail(`merkle proof longer than ${MAX_RSKIP92_PROOF_BYTES} bytes`);
  // Step 3: fields present, header exactly 80 bytes.
  if (p.coinbase.length === 0) return fail('compressed coinbase missing');
  if (p.header.length !== PARENT_HEADER_BYTES) return fail('parent header must be 80 bytes');
  // Step 4: proof of work.
  if (!meetsTarget(p.header, targetFromDifficulty(p.difficulty))) return fail('parent header hash above target');
  // Step 5: split the compressed coinbase.
  if (p.coinbase.length < COMPRESSED_COINBASE_HEADER_BYTES) return fail('compressed coinbase shorter than 40 bytes');
  const { hashedBytes, tail } = splitCompressedCoinbase(p.coinbase);
  // Step 6: the last tag ‖ hashForMergedMining occurrence, which must also be the last tag.
  const tagAt = lastIndexOf(tail, concatBytes(MM_TAG, p.hashForMergedMining));
  if (tagAt < 0) {
    return fail(lastIndexOf(tail, MM_TAG) < 0 ? 'merged-mining tag not found' : 'tagged hash does not match hashForMergedMining');
  }
  // Step 7 (coinbase longer than 64 bytes) is the last check of tagPlacementError.
  const problem = tagPlacementError(hashedBytes, tail, tagAt);
  if (problem) return fail(problem);
  // Step 8: coinbase txid from the midstate, folded up to the header's Merkle root.
  let root: Uint8Array;
  try {
    root = foldRskip92Proof(coinbaseTxidFromCompressed(p.coinbase), p.proof);
  } catch (e) {
    return fail((e as Error).message);
  }
  if (!equalsBytes(root, p.header.subarray(36, 68))) return fail('merkle proof does not lead to the parent header merkle root');
  return { ok: true };
}

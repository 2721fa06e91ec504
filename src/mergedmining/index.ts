/**
 * Merged mining with a Bitcoin-style parent chain (RSK rules, docs/merged-mining.md): pure functions, no
 * I/O. Parent-chain header/tx/block codecs, the `RSKBLOCK:` coinbase tag and its compressed form,
 * Merkle proofs (RSKIP92 and partial tree), target, fork-detection data, the proof-of-work check and
 * a local sealer. Hashes are raw byte order unless a name or comment says display order.
 */
export { dsha256, reverseBytes } from './hash.js';
export { SHA256_IV, sha256Midstate, sha256Resume } from './sha256Midstate.js';
export { PARENT_HEADER_BYTES, parentHeaderHash, parseParentHeader, serializeParentHeader, type ParentHeader } from './parentHeader.js';
export {
  hasWitness,
  parentTxid,
  parseParentTx,
  serializeParentTx,
  type ParentTx,
  type ParentTxInput,
  type ParentTxOutput,
} from './parentTx.js';
export { parseParentBlock, serializeParentBlock, type ParentBlock } from './parentBlock.js';
export { MIN_TARGET_DIVISOR, meetsTarget, parentHeaderHashValue, targetFromDifficulty, targetToHex } from './target.js';
export {
  combineNodes,
  foldRskip92Proof,
  isAmbiguousNodePair,
  MAX_RSKIP92_PROOF_BYTES,
  merkleBranch,
  merkleRoot,
  rskip92Proof,
  rskip92ProofFromBranch,
} from './merkle.js';
export { buildPartialMerkleTree, parsePartialMerkleTree, type PartialMerkleTreeResult } from './partialMerkleTree.js';
export {
  lastIndexOf,
  MAX_BYTES_AFTER_TAGGED_HASH,
  MAX_TAG_OFFSET_IN_TAIL,
  MIN_COINBASE_BYTES_EXCLUSIVE,
  MM_TAG,
  tagPlacementError,
} from './tag.js';
export { buildTaggedCoinbase, type TaggedCoinbaseOptions } from './coinbase.js';
export {
  COMPRESSED_COINBASE_HEADER_BYTES,
  coinbaseTxidFromCompressed,
  compressCoinbase,
  findTaggedHash,
  splitCompressedCoinbase,
} from './compressedCoinbase.js';
export {
  applyForkDetection,
  FORK_DETECTION_BYTES,
  FORK_DETECTION_MIN_BLOCK,
  forkDetectionData,
  type ForkDetectionInput,
} from './forkDetection.js';
export {
  parentBlockBytes, parentBlockTemplate, solutionFromParentBlock, solutionFromPartialMerkle, solutionFromTransactions, templateSolution,
  type ParentBlockTemplate, type ParentSolution,
} from './submission.js';
export { verifyMergedMiningProof, type MergedMiningProof, type MergedMiningVerdict } from './proof.js';
export {
  buildMergedMiningSeal,
  SEAL_HEADER_BITS,
  SEAL_HEADER_VERSION,
  solveParentHeader,
  type MergedMiningSeal,
  type SealOptions,
} from './seal.js';

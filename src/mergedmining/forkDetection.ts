/**
 * Fork-detection data (RSKIP110, docs/merged-mining.md "hashForMergedMining"): 12 bytes that replace bytes 20..31 of
 * hashForMergedMining from block 449 on, so a parent-chain miner's coinbase shows which sidechain
 * branch and height it works on.
 */
import { concatBytes } from '@ethereumjs/util';

/** First sidechain block number carrying fork-detection data (7 · 64 + 1 main-chain blocks exist). */
export const FORK_DETECTION_MIN_BLOCK = 449n;

/** Length of the fork-detection data, in bytes. */
export const FORK_DETECTION_BYTES = 12;

/** Entries of the "commit to parents vector" and the height step between them. */
const CPV_SIZE = 7;
const CPV_JUMP = 64n;

/** Inputs of forkDetectionData. */
export interface ForkDetectionInput {
  /** Height of the parent (the current best block). */
  parentNumber: bigint;
  /** Height of the block being built: parentNumber + 1. */
  blockNumber: bigint;
  /**
   * dsha256 (raw order) of the stored parent-chain header of the main-chain block at `height`,
   * or undefined when that block is unknown.
   */
  parentHeaderHashes: (height: bigint) => Uint8Array | undefined;
  /** Sum of `uncleCount` over the parent and its 31 ancestors (capped at 255 here). */
  uncleCountSum: number;
}

/**
 * The 12 bytes for a block ≥ 449 (empty below): bytes 0–6 the first raw byte (last displayed byte)
 * of the parent-chain header hash at heights s, s−64, …, s−384 with s = floor(parent/64)·64;
 * byte 7 the uncle sum capped at 255; bytes 8–11 the block number, 4-byte big-endian.
 */
export function forkDetectionData(input: ForkDetectionInput): Uint8Array {
  const { parentNumber, blockNumber, parentHeaderHashes, uncleCountSum } = input;
  if (parentNumber + 1n !== blockNumber) throw new Error(`block ${blockNumber} is not the child of ${parentNumber}`);
  if (blockNumber < FORK_DETECTION_MIN_BLOCK) return new Uint8Array(0);
  if (blockNumber > 0xffffffffn) throw new RangeError(`block number ${blockNumber} does not fit in 4 bytes`);
  if (!Number.isInteger(uncleCountSum) || uncleCountSum < 0) throw new RangeError(`bad uncle count sum ${uncleCountSum}`);
  const out = new Uint8Array(FORK_DETECTION_BYTES);
  const start = (parentNumber / CPV_JUMP) * CPV_JUMP;
  for (let i = 0; i < CPV_SIZE; i++) {
    const height = start - CPV_JUMP * BigInt(i);
    const hash = parentHeaderHashes(height);
    if (!hash || hash.length !== 32) throw new Error(`no parent-chain header hash for main-chain block ${height}`);
    out[i] = hash[0];
  }
  out[7] = Math.min(uncleCountSum, 255);
  new DataView(out.buffer).setUint32(8, Number(blockNumber), false);
  return out;
}

/**
 * hashForMergedMining from the 32-byte base hash: for blocks ≥ 449 its first 20 bytes ‖ the 12
 * bytes of `data12`; below 449 the base hash unchanged (a copy).
 */
export function applyForkDetection(baseHash32: Uint8Array, data12: Uint8Array, blockNumber: bigint): Uint8Array {
  if (baseHash32.length !== 32) throw new Error('base hash must be 32 bytes');
  if (blockNumber < FORK_DETECTION_MIN_BLOCK) return baseHash32.slice();
  if (data12.length !== FORK_DETECTION_BYTES) throw new Error(`fork-detection data must be 12 bytes, got ${data12.length}`);
  return concatBytes(baseHash32.subarray(0, 32 - FORK_DETECTION_BYTES), data12);
}

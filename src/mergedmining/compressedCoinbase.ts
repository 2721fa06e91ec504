/**
 * The compressed coinbase the sidechain header stores (docs/merged-mining.md "Compressed coinbase"): 8-byte big-endian
 * count N of bytes already hashed ‖ 32-byte SHA-256 state after those N bytes ‖ the remaining
 * bytes (the tail), which must hold the tag.
 */
import { concatBytes } from '@ethereumjs/util';
import { sha256 } from '@noble/hashes/sha2.js';
import { sha256Midstate, sha256Resume } from './sha256Midstate.js';
import { lastIndexOf, MM_TAG, tagPlacementError } from './tag.js';

/** Bytes before the tail in a compressed coinbase: 8 (count) + 32 (SHA-256 state). */
export const COMPRESSED_COINBASE_HEADER_BYTES = 40;

/**
 * Compressed form of a full (non-witness) coinbase: N = 64·floor(p/64) with p the offset of the
 * last `RSKBLOCK:`, so the tag starts within the first 64 tail bytes. Throws without a tag.
 */
export function compressCoinbase(coinbase: Uint8Array): Uint8Array {
  const tagAt = lastIndexOf(coinbase, MM_TAG);
  if (tagAt < 0) throw new Error('merged-mining tag not found');
  const hashedBytes = tagAt - (tagAt % 64);
  const count = new Uint8Array(8);
  new DataView(count.buffer).setBigUint64(0, BigInt(hashedBytes), false);
  return concatBytes(count, sha256Midstate(coinbase.subarray(0, hashedBytes)), coinbase.subarray(hashedBytes));
}

/** A compressed coinbase taken apart: bytes already hashed, SHA-256 state after them, tail bytes. */
export function splitCompressedCoinbase(compressed: Uint8Array): { hashedBytes: bigint; midstate: Uint8Array; tail: Uint8Array } {
  if (compressed.length < COMPRESSED_COINBASE_HEADER_BYTES) {
    throw new Error(`compressed coinbase must be at least 40 bytes, got ${compressed.length}`);
  }
  return {
    hashedBytes: new DataView(compressed.buffer, compressed.byteOffset, 8).getBigUint64(0, false),
    midstate: compressed.subarray(8, COMPRESSED_COINBASE_HEADER_BYTES),
    tail: compressed.subarray(COMPRESSED_COINBASE_HEADER_BYTES),
  };
}

/**
 * Coinbase txid, raw order, from its compressed form: SHA-256 resumed from the stored state over
 * the tail (length padding counts N + tail), then SHA-256 once more. Throws when N is not a
 * multiple of 64.
 */
export function coinbaseTxidFromCompressed(compressed: Uint8Array): Uint8Array {
  const { hashedBytes, midstate, tail } = splitCompressedCoinbase(compressed);
  return sha256(sha256Resume(midstate, hashedBytes, tail));
}

/**
 * The 32 raw bytes after the last `RSKBLOCK:` in a compressed coinbase's tail: the hashForMergedMining
 * the miner committed to (first 20 bytes hash, last 12 fork-detection data). Throws with the
 * reason when the tag is missing or misplaced.
 */
export function findTaggedHash(compressed: Uint8Array): Uint8Array {
  const { hashedBytes, tail } = splitCompressedCoinbase(compressed);
  const tagAt = lastIndexOf(tail, MM_TAG);
  if (tagAt < 0) throw new Error('merged-mining tag not found');
  const problem = tagPlacementError(hashedBytes, tail, tagAt);
  if (problem) throw new Error(problem);
  const hashAt = tagAt + MM_TAG.length;
  return tail.slice(hashAt, hashAt + 32);
}

/** Hash helpers shared by the parent-chain (Bitcoin) code: double SHA-256 and byte-order flips. */
import { sha256 } from '@noble/hashes/sha2.js';

/** SHA256(SHA256(data)), returned in raw (internal) byte order, i.e. as the hash function outputs it. */
export function dsha256(data: Uint8Array): Uint8Array {
  return sha256(sha256(data));
}

/**
 * A reversed copy. Converts a hash between raw order (what SHA-256 outputs, what headers store) and
 * display order (how explorers and RPCs print txids and block hashes).
 */
export function reverseBytes(bytes: Uint8Array): Uint8Array {
  return bytes.slice().reverse();
}

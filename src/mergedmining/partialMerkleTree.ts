/**
 * Bitcoin partial Merkle tree (the body of a BIP37 `merkleblock` without the header): the pre-RSKIP92
 * merged-mining proof form (docs/merged-mining.md "Merkle proof"). Layout: tx count (u32 LE) ‖ varint hash count ‖
 * hashes (raw order) ‖ varint flag-byte count ‖ flag bytes (bits LSB-first, depth-first traversal).
 */
import { concatBytes, equalsBytes } from '@ethereumjs/util';
import { ByteReader, u32le, varint } from './codec.js';
import { dsha256 } from './hash.js';

/** Number of nodes at `height` (0 = leaves) of a tree over `txCount` leaves. */
function widthAt(txCount: number, height: number): number {
  return Math.ceil(txCount / 2 ** height);
}

/** Height of the root above the leaves (0 for a single transaction). */
function treeHeight(txCount: number): number {
  let height = 0;
  while (widthAt(txCount, height) > 1) height++;
  return height;
}

/**
 * Partial tree proving leaf 0 (the coinbase). `branchRaw` = coinbase txid, then its siblings
 * bottom-up, all raw order; it must hold exactly 1 + tree height hashes. Flags: one "1" per hash
 * (root down to the coinbase), then one "0" per sibling.
 */
export function buildPartialMerkleTree(txCount: number, branchRaw: Uint8Array[]): Uint8Array {
  if (!Number.isInteger(txCount) || txCount < 1 || txCount > 0xffffffff) throw new RangeError(`bad tx count ${txCount}`);
  const height = treeHeight(txCount);
  if (branchRaw.length !== height + 1) {
    throw new Error(`a ${txCount}-transaction tree needs ${height + 1} branch hashes, got ${branchRaw.length}`);
  }
  branchRaw.forEach((h, i) => {
    if (h.length !== 32) throw new Error(`branch hash ${i} must be 32 bytes`);
  });
  const bitCount = 2 * height + 1;
  const flags = new Uint8Array(Math.ceil(bitCount / 8));
  for (let bit = 0; bit <= height; bit++) flags[bit >> 3] |= 1 << (bit & 7);
  return concatBytes(u32le(txCount), varint(branchRaw.length), ...branchRaw, varint(flags.length), flags);
}

/** What a partial tree proves: its root and the matched leaves (raw order), plus the block's tx count. */
export interface PartialMerkleTreeResult {
  root: Uint8Array;
  matched: Uint8Array[];
  txCount: number;
}

/**
 * Parses and walks a partial tree. Throws unless the declared sizes add up to exactly the input,
 * every hash and every flag byte is used, and no node has two identical children (CVE-2012-2459).
 * The caller compares `root` with the header and looks for the coinbase txid in `matched`.
 */
export function parsePartialMerkleTree(bytes: Uint8Array): PartialMerkleTreeResult {
  const r = new ByteReader(bytes);
  const txCount = r.u32le('partial merkle tree tx count');
  const hashCount = r.count('partial merkle tree hash count');
  const hashes = Array.from({ length: hashCount }, (_, i) => r.bytes(32, `partial merkle tree hash ${i}`));
  const flags = r.varBytes('partial merkle tree flags');
  if (r.remaining !== 0) throw new Error(`${r.remaining} trailing bytes after the partial merkle tree`);
  if (txCount === 0) throw new Error('partial merkle tree with zero transactions');
  if (hashCount > txCount) throw new Error('partial merkle tree has more hashes than transactions');
  if (flags.length * 8 < hashCount) throw new Error('partial merkle tree has fewer flag bits than hashes');

  const matched: Uint8Array[] = [];
  let bitsUsed = 0;
  let hashesUsed = 0;
  const walk = (height: number, pos: number): Uint8Array => {
    if (bitsUsed >= flags.length * 8) throw new Error('partial merkle tree ran out of flag bits');
    const onPath = (flags[bitsUsed >> 3] >> (bitsUsed & 7)) & 1;
    bitsUsed++;
    if (height === 0 || !onPath) {
      if (hashesUsed >= hashes.length) throw new Error('partial merkle tree ran out of hashes');
      const hash = hashes[hashesUsed++];
      if (height === 0 && onPath) matched.push(hash);
      return hash;
    }
    const left = walk(height - 1, pos * 2);
    let right = left;
    if (pos * 2 + 1 < widthAt(txCount, height - 1)) {
      right = walk(height - 1, pos * 2 + 1);
      if (equalsBytes(left, right)) throw new Error('partial merkle tree node has two identical children');
    }
    return dsha256(concatBytes(left, right));
  };
  const root = walk(treeHeight(txCount), 0);
  if (hashesUsed !== hashes.length) throw new Error('partial merkle tree has unused hashes');
  if (Math.ceil(bitsUsed / 8) !== flags.length) throw new Error('partial merkle tree has unused flag bytes');
  return { root, matched, txCount };
}

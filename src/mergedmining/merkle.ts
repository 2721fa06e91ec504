/**
 * Parent-chain Merkle trees (Bitcoin rule: an odd level pairs its last node with itself) and the
 * RSKIP92 short proof (docs/merged-mining.md "Merkle proof"). Txids and nodes are raw order unless a name says
 * display; RSKIP92 proofs store each sibling in display order.
 */
import { concatBytes } from '@ethereumjs/util';
import { dsha256, reverseBytes } from './hash.js';

/** Largest RSKIP92 proof accepted (RSKIP180): 30 levels of 32-byte siblings. */
export const MAX_RSKIP92_PROOF_BYTES = 960;

/** Highest output value, in satoshis, that a 64-byte node pair may show to count as a transaction. */
const MAX_MONEY_SAT = 21_000_000n * 100_000_000n;
/** Highest previous-output index that a 64-byte node pair may show to count as a transaction. */
const MAX_PREV_INDEX = 1_000_000;

function checkHash(hash: Uint8Array, what: string): void {
  if (hash.length !== 32) throw new Error(`${what} must be 32 bytes, got ${hash.length}`);
}

/**
 * True when 64 bytes (two Merkle nodes, left ‖ right, raw order) also parse as a plausible 64-byte
 * transaction: one input, one output, the two scripts 4 bytes together, output value 1..21e14 sat,
 * previous-output index ≤ 1,000,000 or 0xffffffff. Such pairs are refused so a transaction cannot
 * pass as an inner node (docs/merged-mining.md "Merkle proof").
 */
export function isAmbiguousNodePair(pair: Uint8Array): boolean {
  if (pair.length !== 64) return false;
  const view = new DataView(pair.buffer, pair.byteOffset, 64);
  // Layout: version 0..3, input count 4, outpoint 5..40, script length 41, script, sequence,
  // output count, value (8), script length, script, locktime 60..63.
  const inputScriptBytes = pair[41];
  if (pair[4] !== 1 || inputScriptBytes > 4) return false;
  const outputCountAt = 46 + inputScriptBytes;
  if (pair[outputCountAt] !== 1) return false;
  if (inputScriptBytes + pair[outputCountAt + 9] !== 4) return false;
  const value = view.getBigUint64(outputCountAt + 1, true);
  if (value < 1n || value > MAX_MONEY_SAT) return false;
  const prevIndex = view.getUint32(37, true);
  return prevIndex <= MAX_PREV_INDEX || prevIndex === 0xffffffff;
}

/** Parent of two raw-order nodes: dsha256(left ‖ right); throws on an ambiguous pair (see above). */
export function combineNodes(left: Uint8Array, right: Uint8Array): Uint8Array {
  const pair = concatBytes(left, right);
  if (isAmbiguousNodePair(pair)) throw new Error('merkle node pair parses as a 64-byte transaction');
  return dsha256(pair);
}

function nextLevel(level: Uint8Array[]): Uint8Array[] {
  const up: Uint8Array[] = [];
  for (let i = 0; i < level.length; i += 2) up.push(dsha256(concatBytes(level[i], level[i + 1] ?? level[i])));
  return up;
}

/** Merkle root, raw order, of a block's txids (raw order, block order). */
export function merkleRoot(txidsRaw: Uint8Array[]): Uint8Array {
  if (txidsRaw.length === 0) throw new Error('merkle root of an empty transaction list');
  txidsRaw.forEach((txid, i) => checkHash(txid, `txid ${i}`));
  let level = txidsRaw;
  while (level.length > 1) level = nextLevel(level);
  return level[0].slice();
}

/** Siblings, raw order, bottom-up, on the path from leaf `index` to the root. Empty for a 1-tx block. */
export function merkleBranch(txidsRaw: Uint8Array[], index = 0): Uint8Array[] {
  if (!Number.isInteger(index) || index < 0 || index >= txidsRaw.length) {
    throw new RangeError(`leaf index ${index} outside 0..${txidsRaw.length - 1}`);
  }
  txidsRaw.forEach((txid, i) => checkHash(txid, `txid ${i}`));
  const branch: Uint8Array[] = [];
  let level = txidsRaw;
  for (let at = index; level.length > 1; at >>= 1) {
    branch.push((level[at ^ 1] ?? level[at]).slice());
    level = nextLevel(level);
  }
  return branch;
}

/** RSKIP92 proof bytes from raw-order siblings: each reversed to display order, concatenated. */
export function rskip92ProofFromBranch(siblingsRaw: Uint8Array[]): Uint8Array {
  siblingsRaw.forEach((s, i) => checkHash(s, `sibling ${i}`));
  return concatBytes(...siblingsRaw.map(reverseBytes));
}

/**
 * RSKIP92 proof (concatenated display-order siblings, bottom-up) for leaf `index` of a block's txids
 * (raw order). Merged mining always proves leaf 0, the coinbase.
 */
export function rskip92Proof(txidsRaw: Uint8Array[], index = 0): Uint8Array {
  return rskip92ProofFromBranch(merkleBranch(txidsRaw, index));
}

/**
 * Folds an RSKIP92 proof from a raw-order txid up to a raw-order root. Leaf `index` (default 0,
 * the coinbase, which is always the left operand) decides each step's side. Throws when the proof
 * length is not a multiple of 32, exceeds 960 bytes, or a step meets an ambiguous 64-byte pair.
 */
export function foldRskip92Proof(txidRaw: Uint8Array, proof: Uint8Array, index = 0): Uint8Array {
  checkHash(txidRaw, 'txid');
  if (proof.length % 32 !== 0) throw new Error('merkle proof length must be a multiple of 32 bytes');
  if (proof.length > MAX_RSKIP92_PROOF_BYTES) throw new Error(`merkle proof longer than ${MAX_RSKIP92_PROOF_BYTES} bytes`);
  let node = txidRaw;
  for (let at = 0, path = index; at < proof.length; at += 32, path >>= 1) {
    const sibling = reverseBytes(proof.subarray(at, at + 32));
    node = path & 1 ? combineNodes(sibling, node) : combineNodes(node, sibling);
  }
  return node.slice();
}

/**
 * Merkle Patricia trie nodes as RLP decodes them, and a builder of whole subtrees, shared by the
 * one-pass ordered-trie roots (trieRoot.ts) and the batched state-trie updates (stateTrie.ts).
 */
import { keccak256 } from '../codec/bytes.ts';
import { encodeRlp } from '../codec/rlp.ts';

/** A node: 17 items (branch: 16 children, then a value) or 2 (leaf or extension: compact path, then value or child). */
export type RawNode = RawItem[];
/** A child reference: empty, a 32-byte hash, or an embedded node (encoding under 32 bytes). */
export type RawItem = Uint8Array | RawNode;

/** A key path in nibbles, from some depth on, with what it holds. */
export interface KeyPath<V> {
  readonly path: Uint8Array;
  readonly value: V;
}

export const EMPTY = new Uint8Array();

/** Writes the nibbles of `bytes` from byte `from` on into `out` from `at` on; returns `out`. */
function writeNibbles(bytes: Uint8Array, from: number, out: Uint8Array, at: number): Uint8Array {
  for (let i = from; i < bytes.length; i++, at += 2) {
    out[at] = bytes[i]! >> 4;
    out[at + 1] = bytes[i]! & 15;
  }
  return out;
}

export const toNibbles = (bytes: Uint8Array): Uint8Array => writeNibbles(bytes, 0, new Uint8Array(bytes.length * 2), 0);

/** Hex-prefix (compact) encoding of a key path, with the leaf flag. */
function compactPath(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  out[0] = ((leaf ? 2 : 0) + odd) << 4 | (odd ? path[0]! : 0);
  for (let i = odd, j = 1; i < path.length; i += 2, j++) out[j] = (path[i]! << 4) | path[i + 1]!;
  return out;
}

/**
 * The key path and leaf flag a compact path encodes, the path an array of its own: a `subarray` of all the
 * nibbles would move a short array's bytes out of V8's heap (docs/performance.md "Short byte strings").
 */
export function fromCompact(compact: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const flag = compact[0]! >> 4;
  const odd = flag & 1;
  const path = writeNibbles(compact, 1, new Uint8Array(2 * compact.length - 2 + odd), odd);
  if (odd) path[0] = compact[0]! & 15;
  return { path, leaf: (flag & 2) !== 0 };
}

export const leafNode = (path: Uint8Array, value: Uint8Array): RawNode => [compactPath(path, true), value];
export const extensionNode = (path: Uint8Array, child: RawItem): RawNode => [compactPath(path, false), child];
export const emptyBranch = (): RawNode => Array.from({ length: 17 }, () => EMPTY);

/** Non-empty paths grouped by their first nibble, with that nibble taken off. */
export function byFirstNibble<V>(items: readonly KeyPath<V>[]): Map<number, KeyPath<V>[]> {
  const groups = new Map<number, KeyPath<V>[]>();
  for (const { path, value } of items) {
    const group = groups.get(path[0]!) ?? [];
    group.push({ path: path.subarray(1), value });
    groups.set(path[0]!, group);
  }
  return groups;
}

/** How a parent refers to `node`: embedded when its encoding is under 32 bytes, else by hash, after `onHashed` sees it. */
export function reference(node: RawNode, onHashed?: (hash: Uint8Array, encoded: Uint8Array) => void): RawItem {
  const encoded = encodeRlp(node);
  if (encoded.length < 32) return node;
  const hash = keccak256(encoded);
  onHashed?.(hash, encoded);
  return hash;
}

/** The subtree holding `leaves` (distinct paths; one may end here, its value then sits in a branch). */
export function buildNode(leaves: readonly KeyPath<Uint8Array>[], refer: (node: RawNode) => RawItem): RawNode | undefined {
  if (leaves.length <= 1) return leaves[0] && leafNode(leaves[0].path, leaves[0].value);
  const first = leaves[0]!.path;
  let shared = 0;
  while (shared < first.length && leaves.every((l) => l.path.length > shared && l.path[shared] === first[shared])) shared++;
  if (shared > 0) {
    const child = buildNode(leaves.map((l) => ({ path: l.path.subarray(shared), value: l.value })), refer)!;
    return extensionNode(first.subarray(0, shared), refer(child));
  }
  const branch = emptyBranch();
  const ending = leaves.find((l) => l.path.length === 0);
  if (ending) branch[16] = ending.value;
  for (const [nibble, group] of byFirstNibble(leaves.filter((l) => l.path.length > 0))) branch[nibble] = refer(buildNode(group, refer)!);
  return branch;
}

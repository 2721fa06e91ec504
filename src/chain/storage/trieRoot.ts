/**
 * The root of a trie keyed by RLP(index), as the transactions and receipts tries of a block are,
 * computed in one pass: the keys are split by nibble from the top and each node is encoded and
 * hashed once. Building an incremental @ethereumjs/mpt trie (one put, one re-hash of the path per
 * item) costs several times more, and blocks are imported and built by the thousand in a sync.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../codec/bytes.ts';
import { encodeRlp } from '../codec/rlp.ts';
import { buildNode, EMPTY, reference, toNibbles } from './trieNodes.ts';

/** The root of the trie mapping RLP(i) to values[i]. */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  const root = buildNode(values.map((value, i) => ({ path: toNibbles(RLP.encode(i)), value })), reference);
  return keccak256(encodeRlp(root ?? EMPTY));
}

/**
 * Receipt inclusion proofs: the nodes of a block's receipts trie (the Ethereum one, keyed by
 * RLP(index), values `consensusReceipt`) on the path to one receipt. With the block's receiptsRoot
 * a light client or bridge verifies the receipt without trusting this node.
 */
import { createMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { consensusReceipt, orderedTrie } from './blockRunner.ts';
import type { StoredReceipt } from '../codec/block.ts';

export async function receiptProof(receipts: readonly StoredReceipt[], index: number): Promise<Uint8Array[]> {
  const trie = await orderedTrie(receipts.map(consensusReceipt));
  return createMerkleProof(trie, RLP.encode(index));
}

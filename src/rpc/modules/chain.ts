/**
 * chain_* (README "Method support"): raw headers and receipts, and receipt inclusion proofs against a
 * block's receiptsRoot.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { BlockHeader } from '../../chain/codec/header.ts';
import { encodeHashingHeader } from '../../chain/codec/header.ts';
import { hex } from '../../chain/codec/bytes.ts';
import { consensusReceipt } from '../../chain/execution/blockRunner.ts';
import { receiptProof } from '../../chain/execution/receiptProof.ts';
import { NodeError } from '../../errors.ts';
import { findBlock } from '../blocks.ts';
import type { RpcDeps } from '../deps.ts';
import { method } from '../method.ts';
import { blockSelector, hash32 } from '../params.ts';
import { PROTOCOL_VERSION } from './eth/node.ts';

/** The header RLP whose keccak-256 is the block hash (parent-chain header included, coinbase and proof not: RSKIP92). */
const rawHeader = (header: BlockHeader | undefined) => (header ? hex(encodeHashingHeader(header)) : null);

export const chainModule = (deps: Pick<RpcDeps, 'reader' | 'pending'>) => {
  const { reader } = deps;
  return {
    chain_getRawBlockHeaderByHash: method([['hash', hash32]], async ([h]) => rawHeader(await reader.getHeader(h))),
    chain_getRawBlockHeaderByNumber: method([['block', blockSelector]], async ([sel]) => rawHeader((await findBlock(reader, sel, deps.pending))?.header)),

    /** The receipt as the receipts trie holds it (Ethereum consensus encoding); null if not on the canonical chain. */
    chain_getRawTransactionReceiptByHash: method([['hash', hash32]], async ([h]) => {
      const loc = await reader.txLocation(h);
      const receipt = loc && (await reader.getReceipts(loc.blockHash))?.[loc.index];
      return receipt ? hex(consensusReceipt(receipt)) : null;
    }),

    /** Trie nodes from the receiptsRoot of `blockHash` down to the receipt of `txHash`; null if the transaction is not in that block. */
    chain_getTransactionReceiptNodesByHash: method([['blockHash', hash32], ['txHash', hash32]], async ([blockHash, txHash]) => {
      const [block, receipts] = await Promise.all([reader.getBlock(blockHash), reader.getReceipts(blockHash)]);
      if (!block || !receipts) throw new NodeError('BLOCK_NOT_FOUND', `Block with hash ${bytesToHex(blockHash)} not found`);
      const index = block.txs.findIndex((tx) => equalsBytes(tx.hash(), txHash));
      if (index < 0) return null;
      return (await receiptProof(receipts, index)).map(hex);
    }),

    chain_protocolVersion: method([], () => PROTOCOL_VERSION),
  };
};

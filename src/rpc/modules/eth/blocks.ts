/** eth_* block, transaction and receipt lookups (README "Method support"): null when not found. */
import { hex, quantity, ZERO_HASH } from '../../../chain/codec/bytes.ts';
import type { Block } from '../../../chain/codec/block.ts';
import { findBlock, findReceipt, isPending } from '../../blocks.ts';
import type { RpcDeps } from '../../deps.ts';
import { blockText, formatBlock, formatReceipt, formatTx, formatUncle, rememberBlockText } from '../../format.ts';
import { formatPendingBlock } from '../../pending.ts';
import { method } from '../../method.ts';
import { blockNumberOrTag, blockSelector, bool, hash32, index, optional, type BlockSelector } from '../../params.ts';

export const ethBlockMethods = (deps: RpcDeps) => {
  const { reader, pending } = deps;
  const byHash = (hash: Uint8Array): BlockSelector => ({ kind: 'hash', hash, requireCanonical: false });
  const blockJson = async (block: Block | undefined, full: boolean) => {
    if (!block) return null;
    const cached = blockText(block, full);
    if (cached) return cached;
    return rememberBlockText(block, full, formatBlock(block, (await reader.totalDifficulty(block.hash)) ?? 0n, full));
  };
  const txAt = (block: Block | undefined, i: number, inPending = false) => {
    if (!block || i >= block.txs.length) return null;
    return formatTx(block.txs[i]!, inPending ? undefined : { blockHash: block.hash, blockNumber: block.header.number, index: i });
  };
  const uncleAt = async (block: Block | undefined, i: number) => {
    const uncle = block?.uncles[i];
    if (!uncle) return null;
    return formatUncle(uncle, (await reader.totalDifficulty(block.header.parentHash)) ?? 0n);
  };
  const count = (n: number | undefined) => (n === undefined ? null : quantity(n));

  return {
    eth_getBlockByHash: method([['hash', hash32], ['full', optional(bool, false)]], async ([h, full]) =>
      blockJson(await findBlock(reader, byHash(h)), full)),
    eth_getBlockByNumber: method([['block', blockNumberOrTag], ['full', optional(bool, false)]], async ([sel, full]) =>
      (isPending(sel) ? formatPendingBlock(await pending.get(), full) : blockJson(await findBlock(reader, sel), full))),
    eth_getBlockTransactionCountByHash: method([['hash', hash32]], async ([h]) => count((await findBlock(reader, byHash(h)))?.txs.length)),
    eth_getBlockTransactionCountByNumber: method([['block', blockNumberOrTag]], async ([sel]) => count((await findBlock(reader, sel, pending))?.txs.length)),
    eth_getUncleCountByBlockHash: method([['hash', hash32]], async ([h]) => count((await findBlock(reader, byHash(h)))?.uncles.length)),
    eth_getUncleCountByBlockNumber: method([['block', blockNumberOrTag]], async ([sel]) => count((await findBlock(reader, sel, pending))?.uncles.length)),
    eth_getUncleByBlockHashAndIndex: method([['hash', hash32], ['index', index]], async ([h, i]) => uncleAt(await findBlock(reader, byHash(h)), i)),
    eth_getUncleByBlockNumberAndIndex: method([['block', blockNumberOrTag], ['index', index]], async ([sel, i]) => uncleAt(await findBlock(reader, sel, pending), i)),
    eth_getTransactionByBlockHashAndIndex: method([['hash', hash32], ['index', index]], async ([h, i]) => txAt(await findBlock(reader, byHash(h)), i)),
    eth_getTransactionByBlockNumberAndIndex: method([['block', blockNumberOrTag], ['index', index]], async ([sel, i]) => txAt(await findBlock(reader, sel, pending), i, isPending(sel))),
    eth_getTransactionByHash: method([['hash', hash32]], async ([h]) => {
      const loc = await reader.txLocation(h);
      if (loc) return txAt(await reader.getBlock(loc.blockHash), loc.index);
      const pooled = await deps.txpool.ask('pool.get', { hash: hex(h) });
      return pooled ? formatTx(pooled.tx, undefined) : null;
    }),
    eth_getTransactionReceipt: method([['hash', hash32]], ([h]) => findReceipt(reader, h)),
    /** Every receipt of a stored block, in order; null for an unknown block and for `pending` (nothing mined yet). */
    eth_getBlockReceipts: method([['block', blockSelector]], async ([sel]) => {
      if (isPending(sel)) return null;
      const block = await findBlock(reader, sel);
      const receipts = block && await reader.getReceipts(block.hash);
      return block && receipts ? block.txs.map((_, i) => formatReceipt(block, receipts, i)) : null;
    }),
    /** Pending transactions sent from the accounts this node holds (zero block hash, null number: README "Method support"). */
    eth_pendingTransactions: method([], async () => {
      const { pending: txs } = await deps.txpool.ask('pool.list', {});
      const held = new Set(deps.wallet?.accounts());
      return txs.filter((p) => held.has(p.sender)).map((p) => formatTx(p.tx, undefined, hex(ZERO_HASH)));
    }),
  };
};

/** Resolving block selectors (docs/rpc-compatibility.md "Block tags") against the chain, and against the pending block for `pending`. */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex } from '@ethereumjs/util';
import type { Block } from '../chain/codec/block.ts';
import type { CallExecutor } from '../chain/calls.ts';
import type { BlockHeader } from '../chain/codec/header.ts';
import type { ChainView } from '../chain/reader.ts';
import { NodeError } from '../errors.ts';
import type { EvmDeps } from './deps.ts';
import { formatReceipt } from './format.ts';
import { tagHeight } from '../chain/blockTags.ts';
import type { BlockSelector } from './params.ts';
import type { PendingSource } from './pending.ts';

export const isPending = (sel: BlockSelector): boolean => sel.kind === 'tag' && sel.tag === 'pending';

/**
 * The block a selector names, or undefined when this node has no such block. `pending` names the
 * pending block (pending.ts) when `pending` is given; without it, it reads as latest.
 */
export async function findBlock(reader: ChainView, sel: BlockSelector, pending?: PendingSource): Promise<Block | undefined> {
  switch (sel.kind) {
    case 'tag':
      if (sel.tag === 'pending' && pending) return (await pending.get()).block;
      if (sel.tag === 'latest' || sel.tag === 'pending') return reader.getBlock(reader.head().hash);
      return reader.canonicalBlock(tagHeight(sel.tag, reader.head().number));
    case 'number':
      return reader.canonicalBlock(sel.number);
    case 'hash': {
      const block = await reader.getBlock(sel.hash);
      if (block && sel.requireCanonical && !(await reader.isCanonical(block.hash, block.header.number))) {
        throw new NodeError('BLOCK_NOT_FOUND', `Block with hash ${bytesToHex(sel.hash)} is not canonical and it is required`);
      }
      return block;
    }
  }
}

/** The receipt of a mined transaction as eth_getTransactionReceipt answers it; null when no stored block holds it. */
export async function findReceipt(reader: ChainView, hash: Uint8Array): Promise<ReturnType<typeof formatReceipt> | null> {
  const loc = await reader.txLocation(hash);
  if (!loc) return null;
  const [block, receipts] = await Promise.all([reader.getBlock(loc.blockHash), reader.getReceipts(loc.blockHash)]);
  return block && receipts ? formatReceipt(block, receipts, loc.index) : null;
}

/** Like findBlock, but a missing block is an error (state reads cannot answer without one). */
export async function requireBlock(reader: ChainView, sel: BlockSelector): Promise<Block> {
  const block = await findBlock(reader, sel);
  if (block) return block;
  const what = sel.kind === 'hash' ? `with hash ${bytesToHex(sel.hash)}` : sel.kind === 'number' ? `0x${sel.number.toString(16)}` : sel.tag;
  throw new NodeError('BLOCK_NOT_FOUND', `Block ${what} not found`);
}

/** What state reads and calls at a block need: its header, its state, and calls on that state. */
export interface StateView {
  readonly header: BlockHeader;
  readonly state: MerkleStateManager;
  /** Absent on the main thread: calls run on the RPC workers (src/rpc/modules/workerMethods.ts). */
  readonly calls?: CallExecutor;
}

/**
 * The header a selector names, and the calls on its state; `pending` names the pending block where a
 * source of it is given, without one it reads as latest. The head's header is the head's own: no block
 * lookup for the common `latest`.
 */
async function headerAndCalls(
  deps: Pick<EvmDeps, 'reader' | 'calls' | 'pending'>, sel: BlockSelector,
): Promise<{ readonly header: BlockHeader; readonly calls?: CallExecutor; readonly pendingState?: MerkleStateManager }> {
  if (isPending(sel) && deps.pending) {
    const p = await deps.pending.get();
    return { header: p.block.header, calls: p.calls, pendingState: p.state };
  }
  const atHead = sel.kind === 'tag' && (sel.tag === 'latest' || sel.tag === 'pending');
  return { header: atHead ? deps.reader.head().header : (await requireBlock(deps.reader, sel)).header, calls: deps.calls };
}

export async function stateView(deps: Pick<EvmDeps, 'reader' | 'calls' | 'pending'>, sel: BlockSelector): Promise<StateView> {
  const { header, calls, pendingState } = await headerAndCalls(deps, sel);
  return { header, state: pendingState ?? deps.reader.stateAt(header.stateRoot), calls };
}

/** The header to run calls after, and the executor to run them on (a call needs no state view of its own). */
export async function callView(
  deps: Pick<EvmDeps, 'reader' | 'calls' | 'pending'>, sel: BlockSelector,
): Promise<{ readonly header: BlockHeader; readonly calls: CallExecutor }> {
  const { header, calls } = await headerAndCalls(deps, sel);
  if (!calls) throw new Error('a call reached the main thread: calls run on the RPC workers');
  return { header, calls };
}

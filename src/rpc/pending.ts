/**
 * The `pending` block (README "The pending block"): the block this node would mine next, built on the head from the
 * pool's executable transactions by the miner (its current template, so it carries the same
 * coinbase, timestamp offset and minimum gas price), executed but never committed. Its state is
 * read through the template's own trie nodes; calls at `pending` run on it.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { ActorRef } from '../actors/kernel/index.ts';
import type { MinerProtocol } from '../actors/miner/index.ts';
import { makeBlock, type Block } from '../chain/codec/block.ts';
import { hex } from '../chain/codec/bytes.ts';
import { CallExecutor } from '../chain/calls.ts';
import { stateManagerAt } from '../chain/execution/blockRunner.ts';
import { blockLogEntries, type LogEntry } from '../chain/logs/logFilter.ts';
import type { ChainView } from '../chain/reader.ts';
import type { Template } from '../chain/writer.ts';
import { formatBlock, formatTx } from './format.ts';

export interface PendingBlock {
  readonly block: Block;
  readonly totalDifficulty: bigint;
  /** Read-only state after the pending block's transactions. */
  readonly state: MerkleStateManager;
  /** eth_call / eth_estimateGas on that state. */
  readonly calls: CallExecutor;
  /** Its transactions' logs, in order, marked pending (no position yet: docs/rpc-conformance.md, "Pending logs"). */
  readonly logs: readonly LogEntry[];
}

const ZERO_NONCE = '0x0000000000000000';

/** Template building can execute a full block: allow it the miner's own build deadline. */
const BUILD_TIMEOUT_MS = 30_000;

export class PendingBlockSource {
  #last: { readonly template: Template; readonly view: PendingBlock } | undefined;

  constructor(private readonly reader: ChainView, private readonly miner: ActorRef<MinerProtocol>) {}

  /** The current pending block; the same object until the head or the pool changes. */
  async get(): Promise<PendingBlock> {
    const template = await this.miner.ask('block.pending', {}, BUILD_TIMEOUT_MS);
    if (this.#last?.template === template) return this.#last.view;
    const { header } = template;
    const parentTd = (await this.reader.totalDifficulty(header.parentHash)) ?? 0n;
    const block = makeBlock(header, template.txs, template.uncles);
    const view: PendingBlock = Object.freeze({
      block,
      totalDifficulty: parentTd + header.difficulty + template.uncles.reduce((sum, u) => sum + u.difficulty, 0n),
      state: stateManagerAt(template.stateDb, header.stateRoot, this.reader.common, { caches: true }),
      calls: new CallExecutor(this.reader, 2, template.stateDb),
      logs: blockLogEntries(block, template.receipts).map((log) => Object.freeze({ ...log, pending: true as const })),
    });
    this.#last = { template, view };
    return view;
  }
}

/**
 * A pending block has no hash yet (docs/rpc-compatibility.md, "The pending block") and its transactions no position. Its number and logs bloom are
 * given, and its unsealed nonce is zero bytes, where the interface document has null: Foundry cannot parse a null there
 * (docs/rpc-compatibility.md "The pending block").
 */
export function formatPendingBlock(p: PendingBlock, fullTxs: boolean) {
  return {
    ...formatBlock(p.block, p.totalDifficulty, false),
    hash: null, nonce: ZERO_NONCE,
    transactions: p.block.txs.map((tx) => (fullTxs ? formatTx(tx, undefined) : hex(tx.hash()))),
  };
}

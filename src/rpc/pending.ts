/**
 * The `pending` block (README "The pending block"): the block this node would mine next, built on the head from the
 * pool's executable transactions by the miner (its current template, so it carries the same
 * coinbase, timestamp offset and minimum gas price), executed but never committed. Its state is
 * read through the template's own trie nodes; calls at `pending` run on it, on an RPC worker that
 * receives the block and those nodes (docs/rpc-workers.md, "The pending block on a worker").
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { ActorRef } from '../actors/kernel/index.ts';
import type { MinerProtocol } from '../actors/miner/index.ts';
import { blockWork, decodeBlock, encodeBlock, makeBlock, type Block } from '../chain/codec/block.ts';
import { hex } from '../chain/codec/bytes.ts';
import { CallExecutor } from '../chain/calls.ts';
import { stateManagerAt } from '../chain/execution/blockRunner.ts';
import { nextMinimumGasPrice } from '../chain/execution/rules.ts';
import { blockLogEntries, type LogEntry } from '../chain/logs/logFilter.ts';
import type { ChainView } from '../chain/reader.ts';
import { OverlayTrieDb } from '../chain/storage/trieDb.ts';
import { formatBlock, formatTx } from './format.ts';

/** The pending block with its state: what reads, calls and traces at `pending` need. */
export interface PendingState {
  readonly block: Block;
  readonly totalDifficulty: bigint;
  /** Read-only state after the pending block's transactions. */
  readonly state: MerkleStateManager;
  /** eth_call / eth_estimateGas on that state: on an RPC worker, where calls run. */
  readonly calls?: CallExecutor;
}

export interface PendingBlock extends PendingState {
  /** Its transactions' logs, in order, marked pending (no position yet: docs/rpc-conformance.md, "Pending logs"). */
  readonly logs: readonly LogEntry[];
}

/** Where calls and traces find the pending block: the miner's template on the main thread, the one a request carried on a worker. */
export interface PendingSource {
  get(): Promise<PendingState>;
}

/** A pending block as it travels to an RPC worker: the block, and the trie nodes its execution wrote. */
export interface PendingPayload {
  readonly block: Uint8Array;
  readonly totalDifficulty: bigint;
  readonly nodes: ReadonlyMap<string, Uint8Array>;
}

/** The current pending block for a worker: `key` names it (the same key, the same block), `payload` is sent once per worker. */
export interface PendingSnapshot {
  readonly key: number;
  payload(): PendingPayload;
}

const ZERO_NONCE = '0x0000000000000000';

/** Template building can execute a full block: allow it the miner's own build deadline. */
const BUILD_TIMEOUT_MS = 30_000;

const stateOf = (reader: ChainView, block: Block, stateDb: OverlayTrieDb) => stateManagerAt(stateDb, block.header.stateRoot, reader.common, { caches: true });

/** The pending block a worker received, over the worker's own view of the committed trie. */
export function pendingFromPayload(reader: ChainView, p: PendingPayload): PendingState {
  const block = decodeBlock(p.block, reader.common);
  const stateDb = new OverlayTrieDb(reader.trieDb, new Map(p.nodes));
  return Object.freeze({ block, totalDifficulty: p.totalDifficulty, state: stateOf(reader, block, stateDb), calls: new CallExecutor(reader, 2, stateDb) });
}

export class PendingBlockSource implements PendingSource {
  #last: { readonly key: number; readonly template: object; readonly view: PendingBlock; readonly stateDb: OverlayTrieDb } | undefined;

  /** `minGasPriceTarget`: the miner's (`--min-gas-price`), which its blocks' minimum gas prices move toward. */
  constructor(private readonly reader: ChainView, private readonly miner: ActorRef<MinerProtocol>, private readonly minGasPriceTarget: bigint) {}

  /**
   * The pending block's minimum gas price (the least a transaction in it pays): the miner builds it from the
   * head's and its target alone, so it is known without building the block (eth_gasPrice, a default gas price).
   */
  minimumGasPrice(): bigint {
    return nextMinimumGasPrice(this.reader.head().header.minimumGasPrice, this.minGasPriceTarget);
  }

  /** The current pending block; the same object until the head or the pool changes. */
  async get(): Promise<PendingBlock> {
    const template = await this.miner.ask('block.pending', {}, BUILD_TIMEOUT_MS);
    if (this.#last?.template === template) return this.#last.view;
    const { header } = template;
    const parentTd = (await this.reader.totalDifficulty(header.parentHash)) ?? 0n;
    const block = makeBlock(header, template.txs, template.uncles);
    const totalDifficulty = parentTd + blockWork(block);
    const view: PendingBlock = Object.freeze({
      block, totalDifficulty, state: stateOf(this.reader, block, template.stateDb),
      logs: blockLogEntries(block, template.receipts).map((log) => Object.freeze({ ...log, pending: true as const })),
    });
    this.#last = { key: (this.#last?.key ?? 0) + 1, template, view, stateDb: template.stateDb };
    return view;
  }

  /** The current pending block as a worker takes it. */
  async snapshot(): Promise<PendingSnapshot> {
    await this.get();
    const { key, view, stateDb } = this.#last!;
    return { key, payload: () => ({ block: encodeBlock(view.block), totalDifficulty: view.totalDifficulty, nodes: stateDb.writes }) };
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

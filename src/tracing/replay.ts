/**
 * Re-execution of a stored block for tracing. The block's transactions run again on its parent's
 * state, through the same execution setup as import (src/chain/execution/blockRunner.ts), in a scratch
 * overlay that is dropped afterwards: tracing never writes chain data. Tracers listen to the EVM's
 * events only while the transactions they trace run.
 */
import type { EVM } from '@ethereumjs/evm';
import type { RunTxResult } from '@ethereumjs/vm';
import type { Block } from '../chain/codec/block.ts';
import { ZERO_HASH } from '../chain/codec/bytes.ts';
import { createExecutionVM, executionBlock, stateManagerAt } from '../chain/execution/blockRunner.ts';
import { runTransaction } from '../chain/execution/runTransaction.ts';
import type { ChainView } from '../chain/reader.ts';
import { attach, type TxTracer } from '../chain/execution/tracer.ts';
import { OverlayTrieDb } from '../chain/storage/trieDb.ts';
import { NodeError } from '../errors.ts';

/** The tracer contract is execution's (src/chain/execution/tracer.ts); the tracers here implement it. */

/** Replays at most this many blocks at once; more wait their turn (tracing is CPU-heavy)… */
const MAX_CONCURRENT_REPLAYS = 2;
/** …up to this many; past it a trace request is refused at once. */
const MAX_WAITING_REPLAYS = 32;

export class BlockReplayer {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly reader: ChainView) {}

  /** The trace of transaction `index` of `block`, after re-executing the ones before it. */
  async traceTx<T>(block: Block, index: number, tracer: TxTracer<T>): Promise<T> {
    const [trace] = await this.replay(block, index, (i) => (i === index ? tracer : undefined));
    return trace!;
  }

  /** Traces of every transaction of `block`, in order, each from its own tracer. */
  traceAll<T>(block: Block, tracer: () => TxTracer<T>): Promise<T[]> {
    return this.replay(block, block.txs.length - 1, tracer);
  }

  /**
   * Re-executes `block` up to its transaction `last` (inclusive), tracing each transaction for
   * which `tracerFor(index)` returns a tracer. Traces come back in transaction order.
   */
  private async replay<T>(block: Block, last: number, tracerFor: (index: number) => TxTracer<T> | undefined): Promise<T[]> {
    if (last < 0) return [];
    await this.#acquire();
    try {
      return await this.#run(block, last, tracerFor);
    } finally {
      this.#release();
    }
  }

  async #run<T>(block: Block, last: number, tracerFor: (index: number) => TxTracer<T> | undefined): Promise<T[]> {
    const { reader } = this;
    const parent = await reader.getHeader(block.header.parentHash);
    if (!parent) throw new NodeError('BLOCK_NOT_FOUND', 'the parent of this block is not stored: it cannot be re-executed');
    const env = {
      common: reader.common, trieDb: reader.trieDb,
      blockHash: async (n: bigint) => (await reader.canonicalHash(n)) ?? ZERO_HASH,
    };
    // The import's state setup (stateTrie.ts): reads through the decoded trie nodes, writes kept in the state
    // caches. One checkpoint around the replay, never committed (the VM is dropped), as the import takes one
    // around the block: no transaction's commit writes the trie, which nothing here reads.
    const state = stateManagerAt(new OverlayTrieDb(reader.trieDb), parent.stateRoot, reader.common, { caches: true });
    const vm = await createExecutionVM(env, state);
    await state.checkpoint();
    const h = block.header;
    const execBlock = executionBlock({
      number: h.number, timestamp: h.timestamp, coinbase: h.coinbase, gasLimit: h.gasLimit, difficulty: h.difficulty,
      prevRandao: h.parentHash,
    }, reader.common);
    const traces: T[] = [];
    let blockGasUsed = 0n;
    for (let i = 0; i <= last && i < block.txs.length; i++) {
      const tx = block.txs[i]!;
      const tracer = tracerFor(i);
      const detach = tracer ? attach(vm.evm as EVM, tracer.listeners) : undefined;
      let run: RunTxResult;
      try {
        run = await runTransaction(vm, { tx, block: execBlock, blockGasUsed, skipHardForkValidation: true });
      } finally {
        detach?.();
      }
      blockGasUsed += run.totalGasSpent;
      if (tracer) traces.push(tracer.finish(tx, run));
    }
    return traces;
  }

  async #acquire(): Promise<void> {
    if (this.#running >= MAX_CONCURRENT_REPLAYS && this.#waiting.length >= MAX_WAITING_REPLAYS) {
      throw new NodeError('LIMIT_EXCEEDED', `node busy: ${MAX_CONCURRENT_REPLAYS} traces running and ${MAX_WAITING_REPLAYS} waiting; retry later`);
    }
    while (this.#running >= MAX_CONCURRENT_REPLAYS) await new Promise<void>((r) => this.#waiting.push(r));
    this.#running++;
  }

  #release(): void {
    this.#running--;
    this.#waiting.shift()?.();
  }
}

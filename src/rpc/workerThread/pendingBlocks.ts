/**
 * The pending blocks a worker was sent (docs/rpc-workers.md, "The pending block on a worker"): each
 * arrives once with the first request that names it and is kept for the next ones. A request runs
 * with its own (several interleave on a worker, and the pending block may change between them).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChainView } from '../../chain/reader.ts';
import { Lru } from '../../chain/storage/lru.ts';
import { NodeError } from '../../errors.ts';
import { pendingFromPayload, type PendingSource, type PendingState } from '../pending.ts';
import type { WorkerRequest } from '../workers/protocol.ts';

/** Pending blocks kept: requests still running may name older ones than the last received. */
const KEPT = 4;

export class ReceivedPendingBlocks implements PendingSource {
  readonly #byKey = new Lru<number, PendingState>(KEPT);
  readonly #current = new AsyncLocalStorage<PendingState>();

  constructor(private readonly reader: ChainView) {}

  /** Runs `run` with the pending block `named` as the one `get` returns. */
  during<T>(named: NonNullable<WorkerRequest['pending']>, run: () => Promise<T>): Promise<T> {
    let state = this.#byKey.get(named.key);
    if (named.payload) {
      state = pendingFromPayload(this.reader, named.payload);
      this.#byKey.set(named.key, state);
    }
    if (!state) throw new Error(`pending block ${named.key} was never sent to this worker`);
    return this.#current.run(state, run);
  }

  async get(): Promise<PendingState> {
    const state = this.#current.getStore();
    if (!state) throw new NodeError('UNAVAILABLE', 'a request reached the pending block without naming it');
    return state;
  }
}

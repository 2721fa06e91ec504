/** Messages between the RPC worker pool (main thread) and its workers (docs/rpc-workers.md, "Workers"). */
import type { NetworkName } from '../../chain/execution/networks.ts';
import type { StateStep } from '../../chain/storage/cacheChanges.ts';
import type { PendingPayload } from '../pending.ts';

/** What a worker starts with (its workerData). */
export interface WorkerInit {
  readonly dataDir: string;
  readonly network: NetworkName;
  /** --rpc-gas-cap. */
  readonly gasCap: bigint;
}

/**
 * Messages carry several requests or answers: one postMessage costs tens of microseconds of both
 * threads' time, more than a simple eth_call's execution, so what is ready within one turn of the
 * event loop travels together.
 */

/**
 * A request to answer at the head `head` (a block hash); `stream`: its client takes the answer as a
 * stream, so a struct-log trace is sent in chunks as it grows (docs/rpc-workers.md, "Streamed traces").
 * `pending`: the request names the pending block, known by `key`; its `payload` comes with the first
 * request of each worker that names it (docs/rpc-workers.md, "The pending block on a worker").
 */
export interface WorkerRequest {
  readonly id: number; readonly method: string; readonly params: unknown[]; readonly head: Uint8Array; readonly stream: boolean;
  readonly pending?: { readonly key: number; readonly payload?: PendingPayload };
}

/** A request's result as JSON text, or its JSON-RPC error. */
export type WorkerAnswer =
  | { readonly id: number; readonly text: string }
  | { readonly id: number; readonly error: { readonly code: number; readonly message: string; readonly data?: string } };

/**
 * A new head as the main thread knows it (docs/rpc-workers.md, "Heads told ahead"): its header (full
 * encoding) and total difficulty, and, unless they are too large, the trie nodes its blocks stored and
 * their state steps.
 */
export interface KnownHead {
  readonly header: Uint8Array;
  readonly totalDifficulty: bigint;
  readonly nodes?: ReadonlyMap<string, Uint8Array>;
  readonly states?: readonly StateStep[];
}

/**
 * Requests; the chain's new head, to follow before a request names it (docs/rpc-workers.md, "Reads");
 * `bytes` of a streamed answer's chunks written to its client's socket (the worker sends more); or the
 * order to close the database and exit.
 */
export type ToWorker =
  | { readonly requests: readonly WorkerRequest[] }
  | { readonly head: Uint8Array; readonly known?: KnownHead }
  | { readonly written: { readonly id: number; readonly bytes: number } }
  | { readonly stop: true };

/**
 * Ready for requests; then answers, and chunks of streamed answers: a streamed answer is its chunks,
 * in order, then its answer with the rest of its text (or an error, which cuts it).
 */
export type FromWorker =
  | { readonly ready: true }
  | { readonly answers: readonly WorkerAnswer[] }
  | { readonly chunk: { readonly id: number; readonly bytes: Uint8Array } };

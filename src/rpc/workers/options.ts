/** The RPC worker threads' options (--rpc-workers, --rpc-evm-timeout, --rpc-gas-cap) and their defaults. */
import { availableParallelism } from 'node:os';

/**
 * One worker per core but one (at least one): the main thread keeps a core, since it parses every
 * request, answers the others and writes the blocks. On 2 cores a second worker added no `eth_call`
 * throughput, with the load generator on the same machine (docs/performance.md, "Memory"), and held
 * about 50 MB more resident memory.
 */
export const DEFAULT_RPC_WORKER_OPTIONS = {
  size: Math.max(1, availableParallelism() - 1), timeoutMs: 5_000,
} as const;
/** Requests that may wait per worker: more could not start before a 5 s deadline anyway. */
export const QUEUED_PER_WORKER = 32;
/**
 * A worker that has held no request for this long stops: each costs about 40 MB of resident memory,
 * and starting one again takes a fraction of a second (docs/rpc-workers.md, "Pool").
 */
export const WORKER_IDLE_MS = 30_000;
/** --rpc-gas-cap's default. */
export const DEFAULT_GAS_CAP = 50_000_000n;

export interface RpcWorkerOptions {
  /** Worker threads (--rpc-workers), started on demand. */
  readonly size: number;
  /** Deadline of one request, from its arrival, waiting included (--rpc-evm-timeout). */
  readonly timeoutMs: number;
  /** Requests waiting for a worker; past it a request is refused with LIMIT_EXCEEDED. */
  readonly maxQueued: number;
  /** How long a worker holding no request lives on (default WORKER_IDLE_MS). */
  readonly idleMs?: number;
  /**
   * Workers kept running (--rpc-warm-workers; at most `size` are): started by `warmUp`, never stopped for
   * idleness, replaced when one is lost (docs/rpc-workers.md, "Pool"). Default none.
   */
  readonly warm?: number;
}

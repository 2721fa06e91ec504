/** Messages between the RPC worker pool (main thread) and its workers (docs/rpc-workers.md, "Workers"). */
import type { NetworkName } from '../../chain/networks.ts';

/** What a worker starts with (its workerData). */
export interface WorkerInit {
  readonly dataDir: string;
  readonly network: NetworkName;
  /** --rpc-gas-cap. */
  readonly gasCap: bigint;
}

/** A request to answer at the head `head` (a block hash), or the order to close the database and exit. */
export type ToWorker = { readonly id: number; readonly method: string; readonly params: unknown[]; readonly head: Uint8Array } | { readonly stop: true };

/** Ready for requests; then, per request, its result as JSON text or its JSON-RPC error. */
export type FromWorker =
  | { readonly ready: true }
  | { readonly id: number; readonly text: string }
  | { readonly id: number; readonly error: { readonly code: number; readonly message: string; readonly data?: string } };

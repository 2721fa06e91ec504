/** The methods the RPC workers serve: every one that runs the EVM (docs/rpc-workers.md, "Workers"). */
import type { EvmDeps, MainThreadCallRunner } from '../deps.ts';
import type { Methods } from '../method.ts';
import type { PendingBlockSource } from '../pending.ts';
import type { RpcWorkerPool } from '../workers/pool.ts';
import { traceTimeoutMs, debugTraceMethods } from './debug.ts';
import { ethCallMethods } from './eth/calls.ts';
import { traceModule } from './trace.ts';

export const workerMethods = (deps: EvmDeps): Methods => ({ ...ethCallMethods(deps), ...debugTraceMethods(deps), ...traceModule(deps) });

/** For each, the position of its block selector and of its tracer options, if it takes them. */
export const WORKER_METHODS: Readonly<Record<string, { readonly block?: number; readonly options?: number }>> = {
  eth_call: { block: 1 },
  eth_estimateGas: { block: 1 },
  eth_createAccessList: { block: 1 },
  debug_traceTransaction: { options: 1 },
  debug_traceBlockByHash: { options: 1 },
  debug_traceBlockByNumber: { block: 0, options: 1 },
  debug_traceCall: { block: 1, options: 2 },
  trace_transaction: {},
  trace_block: { block: 0 },
  trace_filter: {},
};

/**
 * `methods` with those of WORKER_METHODS it has sent to the pool. A request naming the `pending`
 * block takes it along (src/rpc/pending.ts). A tracer's `timeout` option shortens the request's deadline.
 * `mainThread` runs the calls it takes while the pool has nothing to do (src/rpc/mainThreadCalls.ts).
 */
export function onWorkers(methods: Methods, pool: RpcWorkerPool, pending: PendingBlockSource, mainThread?: MainThreadCallRunner): Methods {
  const out = { ...methods };
  for (const [name, at] of Object.entries(WORKER_METHODS)) {
    const local = methods[name];
    if (!local) continue;
    out[name] = {
      paramCount: local.paramCount,
      async call(params, ctx) {
        const timeoutMs = at.options === undefined ? undefined : traceTimeoutMs(params[at.options], `${at.options} (options)`, pool.options.timeoutMs);
        const atPending = at.block !== undefined && params[at.block] === 'pending';
        if (mainThread && !atPending) {
          const answered = await mainThread.run(name, params, () => pool.idle(), ctx);
          if (answered) return answered.value;
        }
        return pool.run(name, params, { signal: ctx?.signal, timeoutMs, streamable: ctx?.streamable, pending: atPending ? await pending.snapshot() : undefined });
      },
    };
  }
  return out;
}

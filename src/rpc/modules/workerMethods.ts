/** The methods the RPC workers serve: every one that runs the EVM (docs/rpc-workers.md, "Workers"). */
import type { EvmDeps } from '../deps.ts';
import type { Methods } from '../method.ts';
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
 * block stays on the main thread, which owns the pending block (src/rpc/pending.ts). A tracer's
 * `timeout` option shortens the request's deadline.
 */
export function onWorkers(methods: Methods, pool: RpcWorkerPool): Methods {
  const out = { ...methods };
  for (const [name, at] of Object.entries(WORKER_METHODS)) {
    const local = methods[name];
    if (!local) continue;
    out[name] = {
      paramCount: local.paramCount,
      async call(params, ctx) {
        if (at.block !== undefined && params[at.block] === 'pending') return local.call(params, ctx);
        const timeoutMs = at.options === undefined ? undefined : traceTimeoutMs(params[at.options], `${at.options} (options)`, pool.options.timeoutMs);
        return pool.run(name, params, ctx?.signal, timeoutMs, ctx?.streamable);
      },
    };
  }
  return out;
}

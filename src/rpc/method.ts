/** `method(params, handler)`: the handler's argument tuple comes from its parsers, so validation cannot be skipped. */
import { invalidParams, METHOD_NOT_FOUND, RpcError } from './errors.ts';
import type { Param } from './params.ts';
import { isCallable, moduleOf, type ModuleName, type ModuleSwitch, type RpcSwitches } from './switches.ts';
import type { TraceOutput } from '../tracing/output.ts';

/** What a method learns about the request beyond its params. */
export interface CallContext {
  /** Aborted when the client went away before the answer (HTTP connection closed). */
  readonly signal?: AbortSignal;
  /** Set on an RPC worker when the client takes its answer as a stream: where a struct-log trace goes (docs/rpc-workers.md, "Streamed traces"). */
  readonly traceOutput?: () => TraceOutput;
  /** Set by the HTTP server for a request alone in its body: its answer may be streamed. */
  readonly streamable?: boolean;
}

export interface MethodDef {
  readonly paramCount: number;
  call(params: unknown[], ctx?: CallContext): Promise<unknown>;
}

export type Methods = Record<string, MethodDef>;

type Parsers<T extends unknown[]> = { [K in keyof T]: readonly [name: string, parse: Param<T[K]>] };

export function method<T extends unknown[]>(params: Parsers<T>, handler: (args: T, ctx: CallContext) => unknown): MethodDef {
  return {
    paramCount: params.length,
    async call(raw, ctx = {}) {
      if (raw.length > params.length) {
        throw invalidParams(`too many arguments: this method takes at most ${params.length}, got ${raw.length}`);
      }
      const args = params.map(([name, parse], i) => parse(raw[i], `${i} (${name})`)) as T;
      return handler(args, ctx);
    },
  };
}

/** A method that always fails with `error()`, whatever its params: switched off, unsupported, or needing keys the node lacks. */
export const refusing = (error: () => Error): MethodDef => ({
  paramCount: 0,
  async call() {
    throw error();
  },
});

/** The reference's -32601 for a method that exists but is not served here, with the reason. */
export const unavailable = (name: string, why: string): MethodDef =>
  refusing(() => new RpcError(METHOD_NOT_FOUND, `the method ${name} does not exist/is not available: ${why}`));

/** The table with every switched-off method replaced by a -32601 "not available" answer. */
export function applySwitches(methods: Methods, switches: RpcSwitches): Methods {
  return Object.fromEntries(Object.entries(methods).map(([name, def]) => {
    if (isCallable(switches, name)) return [name, def];
    const s = switches[moduleOf(name) as ModuleName] as ModuleSwitch | undefined;
    return [name, unavailable(name, s?.enabled ? `${name} is disabled in this node's configuration` : `the ${moduleOf(name)} module is disabled in this node's configuration`)];
  }));
}

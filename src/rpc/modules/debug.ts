/**
 * debug_* (README, "Tracing"): transaction and block traces by re-execution, traces of calls, with
 * the default struct-log tracer or the callTracer, and the p2p queue size.
 */
import type { Block } from '../../chain/codec/block.ts';
import { hex, quantity } from '../../chain/codec/bytes.ts';
import { formatCallTrace } from '../../tracing/callTracer.ts';
import { callFrameTracer } from '../../tracing/frames.ts';
import type { TxTracer } from '../../chain/execution/tracer.ts';
import { CollectedTrace, type TraceOutput } from '../../tracing/output.ts';
import { structLogTracer } from '../../tracing/structLogger.ts';
import { callView, findBlock } from '../blocks.ts';
import { replayerOf, type EvmDeps, type RpcDeps } from '../deps.ts';
import { invalidParams } from '../errors.ts';
import { JsonText } from '../json.ts';
import { method, type CallContext } from '../method.ts';
import { blockSelector, hash32, LATEST, optional, txArgs, type Param } from '../params.ts';
import { callGas } from './eth/calls.ts';

export interface TraceOptions {
  readonly tracer: 'rskTracer' | 'callTracer';
  readonly disableMemory: boolean;
  readonly disableStack: boolean;
  readonly disableStorage: boolean;
  readonly onlyTopCall: boolean;
  readonly withLog: boolean;
}

const DEFAULT_OPTIONS: TraceOptions = {
  tracer: 'rskTracer', disableMemory: false, disableStack: false, disableStorage: false, onlyTopCall: false, withLog: false,
};
const TRACERS = new Map<string, TraceOptions['tracer']>([['rsktracer', 'rskTracer'], ['calltracer', 'callTracer']]);
const FLAGS = ['disableMemory', 'disableStack', 'disableStorage', 'onlyTopCall', 'withLog'] as const;

/**
 * The options object: `tracer` ("rskTracer", the default, or "callTracer", any case) and boolean
 * flags given as booleans or "true"/"false", at the top level or inside `tracerConfig`. Other keys
 * are ignored, as the reference node ignores them.
 */
export const traceOptions: Param<TraceOptions> = (raw, name) => {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(raw)) throw invalidParams(`invalid argument ${name}: expected a tracer options object such as {"tracer":"callTracer"}, got ${kind(raw)}`);
  const nested = raw.tracerConfig ?? {};
  if (!isObject(nested)) throw invalidParams(`invalid argument ${name}: tracerConfig must be an object`);
  const all = { ...raw, ...nested };
  let tracer = DEFAULT_OPTIONS.tracer;
  if (all.tracer !== undefined) {
    const known = typeof all.tracer === 'string' ? TRACERS.get(all.tracer.toLowerCase()) : undefined;
    if (!known) throw invalidParams(`Invalid tracer type: ${typeof all.tracer === 'string' ? all.tracer : kind(all.tracer)} in ${name}.tracer (use rskTracer or callTracer)`);
    tracer = known;
  }
  const flag = (key: (typeof FLAGS)[number]): boolean => {
    const v = all[key];
    if (v === undefined) return DEFAULT_OPTIONS[key];
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
    throw invalidParams(`invalid argument ${name}: ${key} must be true or false, got ${JSON.stringify(v)}`);
  };
  return {
    tracer, disableMemory: flag('disableMemory'), disableStack: flag('disableStack'), disableStorage: flag('disableStorage'),
    onlyTopCall: flag('onlyTopCall'), withLog: flag('withLog'),
  };
};

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `the ${typeof v} ${JSON.stringify(v)}`);

/** A Go duration as a tracer's `timeout` option takes it: "500ms", "2s", "1.5m". */
const DURATION = /^(\d{1,9}(?:\.\d{1,3})?)(ms|s|m)$/;

/**
 * The `timeout` of a tracer options object (a Go duration: "500ms", "2s", "1.5m"), in milliseconds,
 * or undefined when absent. It may shorten the node's deadline (--rpc-evm-timeout), not lengthen it.
 */
export function traceTimeoutMs(raw: unknown, name: string, maxMs: number): number | undefined {
  const value = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).timeout : undefined;
  if (value === undefined) return undefined;
  const m = typeof value === 'string' ? DURATION.exec(value) : null;
  if (!m) throw invalidParams(`invalid argument ${name}.timeout: expected a duration such as "500ms" or "2s", got ${kind(value)}`);
  const ms = Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 's' ? 1000 : 60_000);
  if (!(ms >= 1 && ms <= maxMs)) throw invalidParams(`invalid argument ${name}.timeout: ${value} is outside 1ms to ${maxMs}ms (this node's --rpc-evm-timeout)`);
  return ms;
}

/** The debug_* methods that run the EVM, served by the RPC workers (docs/rpc-workers.md). */
export const debugTraceMethods = (deps: EvmDeps) => {
  const { reader } = deps;
  const options = ['options', optional(traceOptions, DEFAULT_OPTIONS)] as const;

  const callTracer = (opts: TraceOptions): TxTracer<unknown> => {
    const frames = callFrameTracer(opts.withLog);
    return { listeners: frames.listeners, finish: (tx, run) => formatCallTrace(frames.finish(tx, run), opts) };
  };
  /**
   * Struct-log traces are written as JSON text to the request's output as they run: streamed to the
   * client by an RPC worker, collected otherwise (docs/rpc-workers.md, "Streamed traces").
   */
  const outputOf = (ctx: CallContext): TraceOutput => ctx.traceOutput?.() ?? new CollectedTrace();

  /** One transaction's (or call's) trace by `run`, given a tracer. */
  async function traceOne(opts: TraceOptions, ctx: CallContext, run: (tracer: TxTracer<unknown>) => Promise<unknown>): Promise<unknown> {
    if (opts.tracer === 'callTracer') return run(callTracer(opts));
    const out = outputOf(ctx);
    await run(structLogTracer(opts, out));
    return new JsonText(out.finish());
  }

  async function traceBlock(block: Block | undefined, opts: TraceOptions, ctx: CallContext) {
    if (!block) return null;
    if (opts.tracer === 'callTracer') {
      // The callTracer labels each trace with its transaction; struct-log traces come as a plain list (as the reference).
      const traces = await replayerOf(deps).traceAll(block, () => callTracer(opts));
      return traces.map((result, i) => ({ txHash: hex(block.txs[i]!.hash()), result }));
    }
    const out = outputOf(ctx);
    let traced = 0;
    await replayerOf(deps).traceAll(block, () => {
      void out.write(traced++ ? ',' : '[');
      return structLogTracer(opts, out);
    });
    void out.write(traced ? ']' : '[]');
    return new JsonText(out.finish());
  }

  return {
    debug_traceTransaction: method([['hash', hash32], options], async ([h, opts], ctx) => {
      const loc = await reader.txLocation(h);
      const block = loc && await reader.getBlock(loc.blockHash);
      if (!loc || !block) return null;
      return traceOne(opts, ctx, (tracer) => replayerOf(deps).traceTx(block, loc.index, tracer));
    }),
    debug_traceBlockByHash: method([['hash', hash32], options], async ([h, opts], ctx) => traceBlock(await reader.getBlock(h), opts, ctx)),
    debug_traceBlockByNumber: method([['block', blockSelector], options], async ([sel, opts], ctx) => traceBlock(await findBlock(reader, sel, deps.pending), opts, ctx)),
    /** A call traced on the state after a block, as eth_call runs it (the same gas cap). */
    debug_traceCall: method([['call', txArgs], ['block', optional(blockSelector, LATEST)], options], async ([args, sel, opts], ctx) => {
      const { header, calls } = await callView(deps, sel);
      return traceOne(opts, ctx, (tracer) => calls.trace(header, args, callGas(args, deps.gasCap), tracer));
    }),
  };
};

export const debugModule = (deps: EvmDeps & Pick<RpcDeps, 'peers'>) => {
  return {
    ...debugTraceMethods(deps),
    /** Bytes waiting in the p2p host's outgoing stream buffers, as the peer manager reports them. */
    debug_wireProtocolQueueSize: method([], async () => quantity((await deps.peers.ask('p2p.info', {})).queued)),
  };
};

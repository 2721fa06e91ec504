/**
 * debug_* (rpc-methods.md §5): transaction and block traces by re-execution, with the default
 * struct-log tracer or the callTracer, and the p2p queue size.
 */
import type { Block } from '../../chain/block.ts';
import { hex, quantity } from '../../chain/bytes.ts';
import { formatCallTrace } from '../../tracing/callTracer.ts';
import { callFrameTracer } from '../../tracing/frames.ts';
import type { TxTracer } from '../../tracing/replay.ts';
import { structLogTracer, TraceBudget } from '../../tracing/structLogger.ts';
import { findBlock } from '../blocks.ts';
import type { RpcDeps } from '../deps.ts';
import { invalidParams } from '../errors.ts';
import { method } from '../method.ts';
import { blockSelector, hash32, optional, type Param } from '../params.ts';

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
  if (!isObject(raw)) throw invalidParams(`invalid argument ${name}: expected a tracer options object such as {"tracer":"callTracer"}`);
  const nested = raw.tracerConfig ?? {};
  if (!isObject(nested)) throw invalidParams(`invalid argument ${name}: tracerConfig must be an object`);
  const all = { ...raw, ...nested };
  let tracer = DEFAULT_OPTIONS.tracer;
  if (all.tracer !== undefined) {
    const known = typeof all.tracer === 'string' ? TRACERS.get(all.tracer.toLowerCase()) : undefined;
    if (!known) throw invalidParams(`Invalid tracer type: ${String(all.tracer)} (use rskTracer or callTracer)`);
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

export const debugModule = (deps: Pick<RpcDeps, 'reader' | 'replayer' | 'peers' | 'pending'>) => {
  const { reader, replayer } = deps;
  const options = ['options', optional(traceOptions, DEFAULT_OPTIONS)] as const;

  /** A fresh tracer per transaction; the struct-log size budget is per request. */
  function tracerFactory(opts: TraceOptions): () => TxTracer<unknown> {
    if (opts.tracer === 'callTracer') {
      return () => {
        const frames = callFrameTracer(opts.withLog);
        return { listeners: frames.listeners, finish: (tx, run) => formatCallTrace(frames.finish(tx, run), opts) };
      };
    }
    const budget = new TraceBudget();
    return () => structLogTracer(opts, budget);
  }

  async function traceBlock(block: Block | undefined, opts: TraceOptions) {
    if (!block) return null;
    const traces = await replayer.traceAll(block, tracerFactory(opts));
    // The callTracer labels each trace with its transaction; struct-log traces come as a plain list (as the reference).
    return opts.tracer === 'callTracer' ? traces.map((result, i) => ({ txHash: hex(block.txs[i]!.hash()), result })) : traces;
  }

  return {
    debug_traceTransaction: method([['hash', hash32], options], async ([h, opts]) => {
      const loc = await reader.txLocation(h);
      const block = loc && await reader.getBlock(loc.blockHash);
      if (!loc || !block) return null;
      return replayer.traceTx(block, loc.index, tracerFactory(opts)());
    }),
    debug_traceBlockByHash: method([['hash', hash32], options], async ([h, opts]) => traceBlock(await reader.getBlock(h), opts)),
    debug_traceBlockByNumber: method([['block', blockSelector], options], async ([sel, opts]) => traceBlock(await findBlock(reader, sel, deps.pending), opts)),
    /** Messages waiting in the p2p layer's queues: none until that layer exists. */
    debug_wireProtocolQueueSize: method([], async () => quantity((await deps.peers.ask('p2p.info', {})).queued)),
  };
};

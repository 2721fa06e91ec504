/**
 * trace_* (README "Tracing"): parity-style traces of a transaction, a block, or a filtered block
 * range, by re-execution.
 */
import type { Block } from '../../chain/codec/block.ts';
import { hex } from '../../chain/codec/bytes.ts';
import { callFrameTracer } from '../../tracing/frames.ts';
import { parityTraces, type ParityTrace } from '../../tracing/parity.ts';
import { tagHeight } from '../../chain/blockTags.ts';
import { findBlock } from '../blocks.ts';
import { replayerOf, type EvmDeps } from '../deps.ts';
import { invalidParams } from '../errors.ts';
import { method } from '../method.ts';
import { address, blockNumberOrTag, blockSelector, hash32, index, type BlockSelector, type Param } from '../params.ts';

/** Most traces one trace_filter returns (reference `rpc.trace.maxTracesPerRequest`). */
export const MAX_TRACES = 10_000;
/** Most blocks one trace_filter re-executes. */
export const MAX_FILTER_BLOCKS = 1_000;

export interface TraceFilter {
  readonly fromBlock: BlockSelector;
  readonly toBlock: BlockSelector;
  readonly fromAddress: ReadonlySet<string>;
  readonly toAddress: ReadonlySet<string>;
  readonly after: number;
  readonly count: number;
}

const addressSet = (raw: unknown, name: string): ReadonlySet<string> => {
  if (raw === undefined || raw === null) return new Set();
  if (!Array.isArray(raw)) throw invalidParams(`invalid argument ${name}: expected an array of addresses`);
  return new Set(raw.map((a, i) => hex(address(a, `${name}[${i}]`))));
};

const nonNegative = (raw: unknown, name: string, fallback: number, negative: string): number => {
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw === 'number' && raw < 0) throw invalidParams(negative);
  return index(raw, name);
};

export const traceFilter: Param<TraceFilter> = (raw, name) => {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidParams('Invalid trace_filter parameters.');
  const o = raw as Record<string, unknown>;
  const tag = (key: string, fallback: 'earliest' | 'latest') =>
    o[key] === undefined || o[key] === null ? { kind: 'tag', tag: fallback } as const : blockNumberOrTag(o[key], `${name}.${key}`);
  const count = nonNegative(o.count, `${name}.count`, MAX_TRACES, 'Count value cannot be negative.');
  if (count > MAX_TRACES) throw invalidParams(`Count value too big. Maximum ${MAX_TRACES} traces allowed.`);
  return {
    fromBlock: tag('fromBlock', 'earliest'), toBlock: tag('toBlock', 'latest'),
    fromAddress: addressSet(o.fromAddress, `${name}.fromAddress`), toAddress: addressSet(o.toAddress, `${name}.toAddress`),
    after: nonNegative(o.after, `${name}.after`, 0, 'After value cannot be negative.'), count,
  };
};

/** The addresses a trace_filter matches a trace on: the sender side and the receiving side. */
function ends(t: ParityTrace): [string | undefined, string | undefined] {
  const a = t.action as Record<string, string | null | undefined>;
  if (t.type === 'suicide') return [a.address ?? undefined, a.refundAddress ?? undefined];
  const to = t.type === 'create' ? (t.result?.address as string | undefined) : a.to;
  return [a.from ?? undefined, to ?? undefined];
}

export const traceModule = (deps: Pick<EvmDeps, 'reader' | 'replayer' | 'pending'>) => {
  const { reader } = deps;

  async function blockTraces(block: Block): Promise<ParityTrace[]> {
    const trees = await replayerOf(deps).traceAll(block, () => callFrameTracer(false));
    return trees.flatMap((tree, i) =>
      parityTraces(tree, { blockHash: block.hash, blockNumber: block.header.number, transactionPosition: i }));
  }

  /** The height a filter bound names (`pending` reads as `latest`). */
  function height(sel: BlockSelector): bigint {
    if (sel.kind === 'number') return sel.number;
    return tagHeight(sel.kind === 'tag' ? sel.tag : 'latest', reader.head().number);
  }

  return {
    trace_transaction: method([['hash', hash32]], async ([h]) => {
      const loc = await reader.txLocation(h);
      const block = loc && await reader.getBlock(loc.blockHash);
      if (!loc || !block) return null;
      const tree = await replayerOf(deps).traceTx(block, loc.index, callFrameTracer(false));
      return parityTraces(tree, { blockHash: block.hash, blockNumber: block.header.number, transactionPosition: loc.index });
    }),

    trace_block: method([['block', blockSelector]], async ([sel]) => {
      const block = await findBlock(reader, sel, deps.pending);
      return block ? blockTraces(block) : null;
    }),

    trace_filter: method([['filter', traceFilter]], async ([f]) => {
      const from = height(f.fromBlock);
      const to = height(f.toBlock);
      if (from > to) throw invalidParams(`fromBlock cannot be greater than toBlock (${from} > ${to})`);
      if (to - from + 1n > BigInt(MAX_FILTER_BLOCKS)) {
        throw invalidParams(`block range too large: trace_filter re-executes at most ${MAX_FILTER_BLOCKS} blocks per request, got ${to - from + 1n}`);
      }
      const matched: ParityTrace[] = [];
      const last = to < reader.head().number ? to : reader.head().number;
      for (let n = from; n <= last && matched.length < f.after + f.count; n++) {
        const block = await reader.canonicalBlock(n);
        if (!block?.txs.length) continue;
        for (const t of await blockTraces(block)) {
          const [src, dst] = ends(t);
          if (f.fromAddress.size && !(src && f.fromAddress.has(src))) continue;
          if (f.toAddress.size && !(dst && f.toAddress.has(dst))) continue;
          matched.push(t);
        }
      }
      return matched.slice(f.after, f.after + f.count);
    }),
  };
};

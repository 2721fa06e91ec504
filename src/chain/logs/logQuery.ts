/**
 * Log queries over a range of canonical blocks, answered from the log index (src/chain/logs/logIndex.ts)
 * with the limits of README "Limits": a range of at most 2,000 blocks is answered whatever the number of
 * logs; a longer range only while it returns at most 10,000 logs, and otherwise the error names a
 * range that fits, so a client can split its query.
 *
 * Without addresses or topics the query takes every block record of the range (blocks with logs
 * only). With them it finds the matching logs in the index before reading anything else: each
 * constrained dimension (the addresses; each topic position) is a union of key ranges, the
 * dimensions are intersected by leapfrogging their cursors (a cursor seeks past the logs another
 * dimension lacks), and only the blocks holding a match are read.
 *
 * The logs of recently read blocks are kept (up to CACHED_LOGS logs), by block number and the index
 * generation they were read in (src/chain/logs/logIndex.ts: it moves on every reorg), so a query of
 * recent blocks reads only index keys. So are the keys an address or topic was last read through
 * (up to CACHED_ENTRIES), from the query's first block through the last block holding one: a block
 * holding an entry is canonical, so are the blocks before it, and until the generation moves none of
 * them changes. A later query starting within that span reads the index only after it.
 */
import type { AbstractKeyIterator, AbstractValueIterator } from 'abstract-level';
import { NodeError } from '../../errors.ts';
import { fromHex, quantity } from '../codec/bytes.ts';
import { ADDRESS, blockKey, indexGeneration, keyPrefix, recordKey, recordLogs, TOPIC } from './logIndex.ts';
import { matchesLog, type LogCriteria, type LogEntry } from './logFilter.ts';
import type { ChainStore } from '../storage/store.ts';

export interface LogLimits {
  /** A range of at most this many blocks is answered with any number of logs. */
  readonly maxBlocks: bigint;
  /** A longer range is answered while it returns at most this many logs. */
  readonly maxLogs: number;
}

/** The eth_getLogs limits (README "Limits" and "Logs, filters and WebSocket"). */
export const LOG_LIMITS: LogLimits = Object.freeze({ maxBlocks: 2_000n, maxLogs: 10_000 });

/** Index entries read per LevelDB round trip. */
const BATCH = 512;
/** Most logs kept in the cache of recently read blocks (about 1 KiB each). */
const CACHED_LOGS = 20_000;
/** Most index entries kept in runs (about 150 bytes each); also the most a cursor gathers for one. */
const CACHED_ENTRIES = 20_000;
const BUFFER = { valueEncoding: 'buffer' } as const;

/** Values by key for one index generation, least recently used first out, bounded by their total weight. */
class GenerationCache<K, V> {
  readonly #entries = new Map<K, { readonly generation: bigint; readonly value: V; readonly weight: number }>();
  #weight = 0;

  constructor(private readonly maxWeight: number) {}

  get(key: K, generation: bigint): V | undefined {
    const entry = this.#entries.get(key);
    if (entry?.generation !== generation) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, generation: bigint, value: V, weight: number): void {
    if (weight > this.maxWeight) return;
    this.#weight -= this.#entries.get(key)?.weight ?? 0;
    this.#entries.delete(key);
    this.#entries.set(key, { generation, value, weight });
    this.#weight += weight;
    for (const [oldest, old] of this.#entries) {
      if (this.#weight <= this.maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= old.weight;
    }
  }
}

/** Every index entry of a key prefix from block `from` through the last of `numbers` (ascending), with its value. */
interface IndexRun {
  readonly from: number;
  readonly numbers: readonly number[];
  readonly lists: readonly Buffer[];
}

/** One store's caches (a process may run several nodes): logs by block number (weight: logs), runs by key prefix (weight: entries). */
interface Caches {
  readonly logs: GenerationCache<number, readonly LogEntry[]>;
  readonly runs: GenerationCache<string, IndexRun>;
}
const caches = new WeakMap<ChainStore, Caches>();

/** Where a query's cursors read: the store, at the index generation read first, and the store's runs. */
interface IndexSource {
  readonly store: ChainStore;
  readonly generation: bigint;
  readonly runs: Caches['runs'];
}

function cachesOf(store: ChainStore): Caches {
  let c = caches.get(store);
  if (!c) caches.set(store, (c = { logs: new GenerationCache(CACHED_LOGS), runs: new GenerationCache(CACHED_ENTRIES) }));
  return c;
}

/** Block numbers are JS numbers here (exact below 2^53); keys end with their 8 bytes. */
const TWO_32 = 2 ** 32;
const numberAt = (key: Buffer) => key.readUInt32BE(key.length - 8) * TWO_32 + key.readUInt32BE(key.length - 4);
function numberBytes(n: number): Buffer {
  const out = Buffer.allocUnsafe(8);
  out.writeUInt32BE(Math.floor(n / TWO_32), 0);
  out.writeUInt32BE(n % TWO_32, 4);
  return out;
}
const AS_BUFFERS = { keyEncoding: 'buffer', valueEncoding: 'buffer' } as const;

/** The logs of canonical blocks: from the cache, or from their records (a block without logs has none: an empty list). */
async function logsOfBlocks(store: ChainStore, generation: bigint, numbers: readonly number[]): Promise<(readonly LogEntry[])[]> {
  const cache = cachesOf(store).logs;
  const out = numbers.map((n) => cache.get(n, generation));
  const missing: number[] = [];
  out.forEach((logs, i) => { if (!logs) missing.push(i); });
  if (missing.length) {
    const records = await store.logs.getMany<Uint8Array, Buffer>(missing.map((i) => recordKey(BigInt(numbers[i]!))), BUFFER);
    missing.forEach((i, j) => {
      const record = records[j];
      const logs = record ? recordLogs(BigInt(numbers[i]!), record) : [];
      cache.set(numbers[i]!, generation, logs, logs.length);
      out[i] = logs;
    });
  }
  return out as (readonly LogEntry[])[];
}

/**
 * The logs matching `criteria` in canonical blocks `from`…`to` (inclusive, both at most the head),
 * in chain order. Throws NodeError LIMIT_EXCEEDED when the range is longer than `limits.maxBlocks`
 * and holds more than `limits.maxLogs` matching logs.
 */
export async function queryLogs(store: ChainStore, criteria: LogCriteria, from: bigint, to: bigint, limits = LOG_LIMITS): Promise<LogEntry[]> {
  const capped = to - from + 1n > limits.maxBlocks;
  const out: LogEntry[] = [];
  for await (const logs of matchingLogs(store, criteria, from, to)) {
    for (const log of logs) {
      if (capped && out.length === limits.maxLogs) throw tooManyLogs(from, to, log.blockNumber, limits);
      out.push(log);
    }
  }
  return out;
}

function tooManyLogs(from: bigint, to: bigint, overflowAt: bigint, limits: LogLimits): NodeError {
  // The blocks before `overflowAt` hold at most maxLogs logs; a span of maxBlocks fits whatever it holds.
  const fitsMaxLogs = overflowAt - 1n;
  const fitsMaxBlocks = from + limits.maxBlocks - 1n;
  const fit = fitsMaxLogs > fitsMaxBlocks ? fitsMaxLogs : fitsMaxBlocks;
  return new NodeError('LIMIT_EXCEEDED',
    `query returned more than ${limits.maxLogs} logs over ${to - from + 1n} blocks (${quantity(from)} to ${quantity(to)}): ` +
    `a query may span at most ${limits.maxBlocks} blocks with any number of logs, or any range with at most ${limits.maxLogs} logs. ` +
    `This block range should work: [${quantity(from)}, ${quantity(fit)}]`);
}

/** The matching logs, in chain order, a batch at a time. */
async function* matchingLogs(store: ChainStore, criteria: LogCriteria, from: bigint, to: bigint): AsyncGenerator<LogEntry[]> {
  // Read first: a reorg landing meanwhile moves it, and what this query caches is dropped.
  const generation = await indexGeneration(store);
  const dimensions: Uint8Array[][] = [];
  if (criteria.addresses.length) dimensions.push(criteria.addresses.map((a) => keyPrefix(ADDRESS, fromHex(a))));
  criteria.topics.forEach((alternatives, p) => { if (alternatives) dimensions.push(alternatives.map((t) => keyPrefix(TOPIC + p, fromHex(t)))); });

  if (dimensions.length === 0) {
    const it = store.logs.keys({ gte: recordKey(from), lte: recordKey(to), ...AS_BUFFERS } as never) as unknown as AbstractKeyIterator<never, Buffer>;
    try {
      for (let keys = await it.nextv(BATCH); keys.length; keys = await it.nextv(BATCH)) {
        yield (await logsOfBlocks(store, generation, keys.map(numberAt))).flat();
      }
    } finally {
      await it.close();
    }
    return;
  }

  const source: IndexSource = { store, generation, runs: cachesOf(store).runs };
  const cursors = dimensions.map((prefixes) => new UnionCursor(prefixes.map((p) => new KeyCursor(source, p, Number(from), Number(to)))));
  /** The logs of candidate blocks at these indexes, in order. */
  const logsAt = async (blocks: number[], indexes: number[][]): Promise<LogEntry[]> => {
    const logs = await logsOfBlocks(store, generation, blocks);
    const out: LogEntry[] = [];
    for (let b = 0; b < blocks.length; b++) {
      for (const i of indexes[b]!) {
        const log = logs[b]![i];
        // Re-checked: a reorg between reading the index and the blocks must not pass off another log.
        if (log && matchesLog(criteria, log.address, log.topics)) out.push(log);
      }
    }
    return out;
  };
  try {
    await Promise.all(cursors.map((c) => c.start()));
    let blocks: number[] = [];
    let indexes: number[][] = [];
    // Awaited only when a cursor reads the index: most steps are synchronous.
    for (let found = nextCommon(cursors, 0); ;) {
      const n = typeof found === 'object' ? await found : found;
      if (n === undefined) break;
      // Every dimension has logs in block n: the matching ones are in all of their lists.
      let common = cursors[0]!.indexes();
      for (let d = 1; d < cursors.length && common.length; d++) {
        const other = new Set(cursors[d]!.indexes());
        common = common.filter((i) => other.has(i));
      }
      if (common.length) {
        blocks.push(n);
        indexes.push(common);
      }
      if (blocks.length === BATCH) {
        yield await logsAt(blocks, indexes);
        blocks = [];
        indexes = [];
      }
      found = nextCommon(cursors, n + 1);
    }
    if (blocks.length) yield await logsAt(blocks, indexes);
  } finally {
    await Promise.all(cursors.map((c) => c.close()));
  }
}

/**
 * The first block at or after `atLeast` that every cursor holds (leapfrog intersection); a promise
 * of it only when a cursor has to read the index first.
 */
function nextCommon(cursors: Cursor[], atLeast: number): number | undefined | Promise<number | undefined> {
  let target = atLeast;
  for (;;) {
    let aligned = true;
    for (const c of cursors) {
      const reading = c.advanceTo(target);
      if (reading) return reading.then(() => nextCommon(cursors, target));
      const at = c.current;
      if (at === undefined) return undefined;
      if (at > target) {
        target = at;
        aligned = false;
      }
    }
    if (aligned) return target;
  }
}

interface Cursor {
  /** The block it stands on; undefined once exhausted. */
  readonly current: number | undefined;
  /** The indexes of the block's logs it holds, ascending. */
  indexes(): number[];
  start(): Promise<void>;
  /**
   * Moves to the first block at or after `target` (stays when already there). Returns a promise
   * only when it has to read the index: most steps are within what was read ahead, and stay synchronous.
   */
  advanceTo(target: number): Promise<void> | undefined;
  close(): Promise<void>;
}

/**
 * The blocks of one index key prefix (an address, or a topic at a position), in order: first those
 * of its cached run, then from the index, a batch ahead. What it reads in order without a seek from
 * its first block (CACHED_ENTRIES at most) becomes the prefix's run when it closes.
 */
class KeyCursor implements Cursor {
  readonly #key: string;
  #it: AbstractValueIterator<never, Buffer, Buffer> | undefined;
  /** The run walked: a cached one, plus what was read after it. Values start with their block number. */
  #run: IndexRun;
  #at = 0;
  #ended: boolean;
  /** #run still holds every entry from its first block on: no seek, not too long. */
  #whole = true;

  constructor(private readonly source: IndexSource, private readonly prefix: Uint8Array,
    private readonly from: number, private readonly to: number) {
    this.#key = Buffer.from(prefix).toString('latin1');
    const cached = source.runs.get(this.#key, source.generation);
    const usable = cached && cached.from <= from && from <= cached.numbers.at(-1)!;
    this.#run = usable ? cached : { from, numbers: [], lists: [] };
    this.#ended = usable ? cached.numbers.at(-1)! >= to : false;
  }

  get current(): number | undefined {
    const n = this.#run.numbers[this.#at];
    return n === undefined || n > this.to ? undefined : n;
  }

  indexes(): number[] {
    const list = this.#run.lists[this.#at]!;
    const out = new Array<number>((list.length - 8) / 4);
    for (let i = 0; i < out.length; i++) out[i] = list.readUInt32BE(8 + 4 * i);
    return out;
  }

  async #read(): Promise<void> {
    const run = this.#run;
    if (!this.#it) {
      const after = run.numbers.length ? run.numbers.at(-1)! + 1 : run.from;
      const range = { gte: blockKey(this.prefix, BigInt(after)), lte: blockKey(this.prefix, BigInt(this.to)), ...AS_BUFFERS };
      this.#it = this.source.store.logs.values(range as never) as unknown as AbstractValueIterator<never, Buffer, Buffer>;
    }
    const lists = await this.#it.nextv(BATCH);
    const numbers = lists.map((list) => list.readUInt32BE(0) * TWO_32 + list.readUInt32BE(4));
    this.#ended = lists.length === 0;
    if (this.#whole && run.numbers.length + lists.length <= CACHED_ENTRIES) {
      this.#run = { from: run.from, numbers: run.numbers.concat(numbers), lists: run.lists.concat(lists) };
    } else {
      this.#whole = false;
      this.#run = { from: run.from, numbers, lists };
      this.#at = 0;
    }
  }

  start(): Promise<void> {
    return this.advanceTo(this.from) ?? Promise.resolve();
  }

  advanceTo(target: number): Promise<void> | undefined {
    const { numbers } = this.#run;
    while (this.#at < numbers.length && numbers[this.#at]! < target) this.#at++;
    if (this.#at < numbers.length || this.#ended) return undefined;
    // Read on from where the entries end, or seek when the target lies beyond the next block.
    if (this.#it && target > numbers.at(-1)! + 1) {
      this.#it.seek(Buffer.concat([this.prefix, numberBytes(target)]));
      this.#whole = false;
    }
    return this.#read().then(() => this.advanceTo(target));
  }

  async close(): Promise<void> {
    if (this.#whole && this.#run.numbers.length) this.source.runs.set(this.#key, this.source.generation, this.#run, this.#run.numbers.length);
    await this.#it?.close();
  }
}

/** The blocks any of several cursors holds (a dimension's alternatives), in order. */
class UnionCursor implements Cursor {
  constructor(private readonly children: Cursor[]) {}

  get current(): number | undefined {
    let min: number | undefined;
    for (const c of this.children) if (c.current !== undefined && (min === undefined || c.current < min)) min = c.current;
    return min;
  }

  indexes(): number[] {
    const at = this.current;
    const lists = this.children.filter((c) => c.current === at).map((c) => c.indexes());
    return lists.length === 1 ? lists[0]! : [...new Set(lists.flat())].sort((a, b) => a - b);
  }

  async start(): Promise<void> {
    await Promise.all(this.children.map((c) => c.start()));
  }

  advanceTo(target: number): Promise<void> | undefined {
    const reading = this.children.map((c) => c.advanceTo(target)).filter((r) => r !== undefined);
    return reading.length ? Promise.all(reading).then(() => undefined) : undefined;
  }

  async close(): Promise<void> {
    await Promise.all(this.children.map((c) => c.close()));
  }
}

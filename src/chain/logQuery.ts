/**
 * Log queries over a range of canonical blocks, answered from the log index (src/chain/logIndex.ts)
 * with the limits of spec part 8: a range of at most 2,000 blocks is answered whatever the number of
 * logs; a longer range only while it returns at most 10,000 logs, and otherwise the error names a
 * range that fits, so a client can split its query.
 *
 * Without addresses or topics the query scans the block records of the range (blocks with logs
 * only). With them it finds the matching logs in the index before reading anything else: each
 * constrained dimension (the addresses; each topic position) is a union of key ranges, the
 * dimensions are intersected by leapfrogging their cursors (a cursor seeks past the logs another
 * dimension lacks), and only the records of blocks holding a match are read.
 */
import { concatBytes } from '@ethereumjs/util';
import type { AbstractKeyIterator } from 'abstract-level';
import { NodeError } from '../errors.ts';
import { fromHex, quantity } from './bytes.ts';
import { ADDRESS, keyPrefix, numberOfRecordKey, POSITION_BYTES, positionRange, recordKey, recordLog, recordLogs, TOPIC } from './logIndex.ts';
import type { LogCriteria, LogEntry } from './logFilter.ts';
import type { ChainStore } from './store.ts';

export interface LogLimits {
  /** A range of at most this many blocks is answered with any number of logs. */
  readonly maxBlocks: bigint;
  /** A longer range is answered while it returns at most this many logs. */
  readonly maxLogs: number;
}

/** Spec part 8. */
export const LOG_LIMITS: LogLimits = Object.freeze({ maxBlocks: 2_000n, maxLogs: 10_000 });

/** Index entries read per LevelDB round trip. */
const BATCH = 512;
const UTF8 = { valueEncoding: 'utf8' } as const;

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
  const dimensions: Uint8Array[][] = [];
  if (criteria.addresses.length) dimensions.push(criteria.addresses.map((a) => keyPrefix(ADDRESS, fromHex(a))));
  criteria.topics.forEach((alternatives, p) => { if (alternatives) dimensions.push(alternatives.map((t) => keyPrefix(TOPIC + p, fromHex(t)))); });

  if (dimensions.length === 0) {
    const it = store.logs.iterator<Uint8Array, string>({ gte: recordKey(from), lte: recordKey(to), ...UTF8 });
    try {
      for (let entries = await it.nextv(BATCH); entries.length; entries = await it.nextv(BATCH)) {
        yield entries.flatMap(([key, text]) => recordLogs(numberOfRecordKey(key), text));
      }
    } finally {
      await it.close();
    }
    return;
  }

  const cursors = dimensions.map((prefixes) => new UnionCursor(prefixes.map((p) => new KeyCursor(store, p, from, to))));
  /** The logs at these positions: the records of their blocks are read once each. */
  const read = async (positions: string[]): Promise<LogEntry[]> => {
    const blocks = [...new Set(positions.map((p) => p.slice(0, 8)))];
    const numbers = blocks.map((b) => Buffer.from(b, 'latin1').readBigUInt64BE());
    const texts = await store.logs.getMany<Uint8Array, string>(numbers.map(recordKey), UTF8);
    const records = new Map(blocks.map((b, i) => [b, { n: numbers[i]!, text: texts[i]! }]));
    return positions.map((p) => {
      const { n, text } = records.get(p.slice(0, 8))!;
      return recordLog(n, text, Buffer.from(p, 'latin1').readUInt32BE(8));
    });
  };
  try {
    await Promise.all(cursors.map((c) => c.start()));
    let positions: string[] = [];
    // Positions are compared as latin1 strings of their bytes: the same order as the keys.
    for (let p = await nextCommon(cursors, ''); p !== undefined; p = await nextCommon(cursors, `${p}\0`)) {
      positions.push(p);
      if (positions.length === BATCH) {
        yield await read(positions);
        positions = [];
      }
    }
    if (positions.length) yield await read(positions);
  } finally {
    await Promise.all(cursors.map((c) => c.close()));
  }
}

/** The first position at or after `atLeast` that every cursor holds (leapfrog intersection). */
async function nextCommon(cursors: Cursor[], atLeast: string): Promise<string | undefined> {
  let target = atLeast;
  for (;;) {
    let aligned = true;
    for (const c of cursors) {
      const reading = c.advanceTo(target);
      if (reading) await reading;
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
  /** The log position it stands on (latin1 string of the position bytes); undefined once exhausted. */
  readonly current: string | undefined;
  start(): Promise<void>;
  /**
   * Moves to the first position at or after `target` (stays when already there). Returns a promise
   * only when it has to read the index: most steps are within what was read ahead, and stay synchronous.
   */
  advanceTo(target: string): Promise<void> | undefined;
  close(): Promise<void>;
}

const positionOfKey = (key: Uint8Array) => key.subarray(key.length - POSITION_BYTES);

/** The logs of one index key prefix (an address, or a topic at a position), in order, read a batch ahead. */
class KeyCursor implements Cursor {
  readonly #it: AbstractKeyIterator<never, Uint8Array>;
  #positions: string[] = [];
  #at = 0;

  constructor(store: ChainStore, private readonly prefix: Uint8Array, from: bigint, to: bigint) {
    this.#it = store.logs.keys(positionRange(prefix, from, to)) as unknown as AbstractKeyIterator<never, Uint8Array>;
  }

  get current(): string | undefined {
    return this.#positions[this.#at];
  }

  async #read(): Promise<void> {
    const keys = await this.#it.nextv(BATCH);
    this.#positions = keys.map((k) => Buffer.from(positionOfKey(k)).toString('latin1'));
    this.#at = 0;
  }

  start(): Promise<void> {
    return this.#read();
  }

  advanceTo(target: string): Promise<void> | undefined {
    while (this.#at < this.#positions.length && this.#positions[this.#at]! < target) this.#at++;
    // Found, or exhausted (the last read came back empty).
    if (this.#at < this.#positions.length || this.#positions.length === 0) return undefined;
    this.#it.seek(concatBytes(this.prefix, Buffer.from(target, 'latin1')));
    return this.#read().then(() => this.advanceTo(target));
  }

  close(): Promise<void> {
    return this.#it.close();
  }
}

/** The logs any of several cursors holds (a dimension's alternatives), in order. */
class UnionCursor implements Cursor {
  constructor(private readonly children: Cursor[]) {}

  get current(): string | undefined {
    let min: string | undefined;
    for (const c of this.children) if (c.current !== undefined && (min === undefined || c.current < min)) min = c.current;
    return min;
  }

  async start(): Promise<void> {
    await Promise.all(this.children.map((c) => c.start()));
  }

  advanceTo(target: string): Promise<void> | undefined {
    const reading = this.children.map((c) => c.advanceTo(target)).filter((r) => r !== undefined);
    return reading.length ? Promise.all(reading).then(() => undefined) : undefined;
  }

  async close(): Promise<void> {
    await Promise.all(this.children.map((c) => c.close()));
  }
}

/**
 * LevelDB layout. One `level` database with sublevels; every block import (or run of synced blocks) is one atomic batch
 * (see ChainStore.batch), so a crash leaves either the whole block or none of it.
 *
 *   headers   block hash → full header RLP
 *   bodies    block hash → RLP [transactions (raw), uncles (full header fields)]
 *   receipts  block hash → RLP [stored receipt …]
 *   td        block hash → total difficulty (big-endian)
 *   canon     number (8-byte BE) → canonical block hash
 *   txloc     transaction hash → RLP [block hash, index]
 *   trie      trie node key (hex) → node bytes (state and storage tries, code)
 *   logs      the log index of canonical blocks (layout in src/chain/logs/logIndex.ts)
 *   meta      'head' → head block hash
 *
 * Writes go behind (docs/chain.md "Writes behind the head"): `write` appends the batch to the write-ahead
 * journal (writeJournal.ts) and returns; LevelDB writes the batches in order on libuv's pool, and until it
 * has one, this store's reads answer its keys from the batch.
 */
import { join } from 'node:path';
import { Level } from 'level';
import type { AbstractSublevel } from 'abstract-level';
import { be64, hex } from '../codec/bytes.ts';
import { WriteJournal, type JournalOp } from './writeJournal.ts';

type Bytes = Uint8Array;
type ParentKey = string | Bytes | Buffer;
export type BytesSublevel = AbstractSublevel<Level<Bytes, Bytes>, ParentKey, Bytes, Bytes>;
export type TrieSublevel = AbstractSublevel<Level<Bytes, Bytes>, ParentKey, string, Bytes>;

export type BatchOp =
  | { type: 'put'; sublevel: BytesSublevel; key: Bytes; value: Bytes }
  | { type: 'del'; sublevel: BytesSublevel; key: Bytes }
  | { type: 'put'; sublevel: TrieSublevel; key: string; value: Bytes };

type AnySublevel = AbstractSublevel<Level<Bytes, Bytes>, ParentKey, string | Bytes, Bytes>;
interface SublevelReads<K> {
  get(key: K): Promise<Bytes | undefined>;
  getMany(keys: K[]): Promise<(Bytes | undefined)[]>;
  has(key: K): Promise<boolean>;
  hasMany(keys: K[]): Promise<boolean[]>;
}

/** Makes `sublevel`'s get and getMany answer from LevelDB on the calling thread (still as promises, for their callers). */
function readSynchronously<K>(sublevel: AbstractSublevel<Level<Bytes, Bytes>, ParentKey, K, Bytes>): void {
  const read = sublevel as unknown as SublevelReads<K>;
  read.get = async (key) => sublevel.getSync(key);
  read.getMany = async (keys) => keys.map((key) => sublevel.getSync(key));
}

/** A key written by a batch LevelDB does not have yet: its value (undefined once deleted) and the batch's number. */
interface Unwritten { readonly value: Bytes | undefined; readonly batch: number }
const textKeys = new TextEncoder();
const keyText = (key: string | Bytes): string => (typeof key === 'string' ? key : hex(key));

/**
 * The batches handed to LevelDB and not written yet, by sublevel and key. Each sublevel's reads look here
 * first, so they see every batch from the moment `write` returned.
 */
class UnwrittenKeys {
  readonly #bySublevel: Map<string, Unwritten>[];
  constructor(sublevels: number) {
    this.#bySublevel = Array.from({ length: sublevels }, () => new Map());
  }
  add(sublevel: number, key: string | Bytes, value: Bytes | undefined, batch: number): void {
    this.#bySublevel[sublevel]!.set(keyText(key), { value, batch });
  }
  /** LevelDB has batch `batch`: its keys no later batch wrote again are read from LevelDB now. */
  written(sublevel: number, key: string | Bytes, batch: number): void {
    const keys = this.#bySublevel[sublevel]!;
    const text = keyText(key);
    if (keys.get(text)?.batch === batch) keys.delete(text);
  }
  get(sublevel: number, key: string | Bytes): Unwritten | undefined {
    const keys = this.#bySublevel[sublevel]!;
    return keys.size ? keys.get(keyText(key)) : undefined;
  }
}

/** Makes `sublevel`'s reads answer the keys of batches LevelDB has not written yet from `unwritten`. */
function readUnwrittenFirst<K extends string | Bytes>(sublevel: AbstractSublevel<Level<Bytes, Bytes>, ParentKey, K, Bytes>, code: number, unwritten: UnwrittenKeys): void {
  const read = sublevel as unknown as SublevelReads<K>;
  const stored = { get: read.get.bind(sublevel), getMany: read.getMany.bind(sublevel), has: read.has.bind(sublevel), hasMany: read.hasMany.bind(sublevel) };
  read.get = (key) => {
    const u = unwritten.get(code, key);
    return u ? Promise.resolve(u.value) : stored.get(key);
  };
  read.has = (key) => {
    const u = unwritten.get(code, key);
    return u ? Promise.resolve(u.value !== undefined) : stored.has(key);
  };
  read.getMany = async (keys) => {
    const known = keys.map((key) => unwritten.get(code, key));
    if (known.every((u) => u === undefined)) return stored.getMany(keys);
    const missing = keys.filter((_, i) => !known[i]);
    const fromLevelDb = missing.length ? await stored.getMany(missing) : [];
    let next = 0;
    return known.map((u) => (u ? u.value : fromLevelDb[next++]));
  };
  read.hasMany = async (keys) => {
    const values = await read.getMany(keys);
    return values.map((v) => v !== undefined);
  };
}

export class ChainStore {
  readonly db: Level<Bytes, Bytes>;
  readonly headers: BytesSublevel;
  readonly bodies: BytesSublevel;
  readonly receipts: BytesSublevel;
  readonly td: BytesSublevel;
  readonly canon: BytesSublevel;
  readonly txloc: BytesSublevel;
  readonly meta: BytesSublevel;
  readonly trie: TrieSublevel;
  readonly logs: BytesSublevel;
  /** The sublevels by their number in the journal's records. */
  readonly #sublevels: AnySublevel[];
  readonly #numbers = new Map<AnySublevel, number>();
  /** Absent on a read-only store (the RPC workers'). */
  readonly #journal: WriteJournal | undefined;
  readonly #unwritten: UnwrittenKeys;
  /** The last batch handed to LevelDB, settled once LevelDB has it and every one before it. */
  #writing: Promise<void> = Promise.resolve();
  #batches = 0;
  #unwrittenBatches = 0;
  /** A LevelDB write that failed: every later write and `settled` fails with it (the journal keeps the batches for the next start). */
  #failed: Error | undefined;

  /**
   * `readsOnThisThread`: reads run on the calling thread (LevelDB's synchronous get) instead of on
   * libuv's pool: for a thread with nothing else to do meanwhile, the RPC workers (docs/rpc-workers.md, "Reads").
   * Such a store only reads; any other keeps the write-ahead journal in `path`.
   */
  constructor(path: string, { readsOnThisThread = false } = {}) {
    // The RPC worker threads open the same database in this process (docs/rpc-workers.md, "Workers").
    this.db = new Level<Bytes, Bytes>(path, { keyEncoding: 'view', valueEncoding: 'view', multithreading: true } as never);
    const sub = (name: string) => this.db.sublevel<Bytes, Bytes>(name, { keyEncoding: 'view', valueEncoding: 'view' });
    this.headers = sub('h');
    this.bodies = sub('b');
    this.receipts = sub('r');
    this.td = sub('t');
    this.canon = sub('c');
    this.txloc = sub('x');
    this.meta = sub('m');
    this.logs = sub('l');
    this.trie = this.db.sublevel<string, Bytes>('s', { keyEncoding: 'utf8', valueEncoding: 'view' });
    const bytesSublevels = [this.headers, this.bodies, this.receipts, this.td, this.canon, this.txloc, this.meta, this.logs];
    this.#sublevels = [...bytesSublevels, this.trie] as AnySublevel[];
    this.#sublevels.forEach((sublevel, i) => this.#numbers.set(sublevel, i));
    this.#unwritten = new UnwrittenKeys(this.#sublevels.length);
    if (readsOnThisThread) {
      for (const sublevel of bytesSublevels) readSynchronously(sublevel);
      readSynchronously(this.trie);
    } else {
      this.#journal = new WriteJournal(join(path, 'chain.journal'));
      for (const sublevel of bytesSublevels) readUnwrittenFirst(sublevel, this.#numbers.get(sublevel as AnySublevel)!, this.#unwritten);
      readUnwrittenFirst(this.trie, this.#numbers.get(this.trie as AnySublevel)!, this.#unwritten);
    }
  }

  /** Opens LevelDB, and writes into it the journal's batches it may not have (a previous run's last ones). */
  async open(): Promise<void> {
    await this.db.open();
    // A sublevel opens a moment after its database; a synchronous read (readsOnThisThread) does not wait for it.
    await Promise.all(this.#sublevels.map((sublevel) => sublevel.open()));
    if (!this.#journal) return;
    const ops = this.#journal.read().flat().map((op) => this.#batchOp(op));
    if (ops.length) await this.db.batch(ops as never);
    this.#journal.open();
  }

  /** Waits for LevelDB to have every batch, then closes it. */
  async close(): Promise<void> {
    await this.#writing;
    if (!this.#failed) this.#journal?.close();
    await this.db.close();
  }

  /**
   * Applies the operations atomically (one LevelDB write batch), in order after every earlier batch, and
   * returns at once: the batch is in the journal, and this store's reads see it. Not fsynced: a killed
   * process loses nothing, a power cut may lose the last blocks but never leaves half of one.
   */
  write(ops: BatchOp[]): void {
    if (this.#failed) throw this.#failed;
    if (!this.#journal) throw new Error('this chain store only reads');
    const batch = ++this.#batches;
    this.#journal.append(ops.map((op) => this.#journalOp(op)));
    for (const op of ops) this.#unwritten.add(this.#numbers.get(op.sublevel as AnySublevel)!, op.key, op.type === 'put' ? op.value : undefined, batch);
    this.#unwrittenBatches++;
    this.#writing = this.#writing.then(async () => {
      if (this.#failed) return;
      try {
        await this.db.batch(ops as never);
      } catch (err) {
        this.#failed = err as Error;
        return;
      }
      for (const op of ops) this.#unwritten.written(this.#numbers.get(op.sublevel as AnySublevel)!, op.key, batch);
      if (--this.#unwrittenBatches === 0) this.#journal!.caughtUp();
    });
  }

  /** Settles once LevelDB has every batch written so far (what reads on other threads and iterators need). */
  async settled(): Promise<void> {
    await this.#writing;
    if (this.#failed) throw this.#failed;
  }

  /** How many batches LevelDB has not written yet. */
  get unwrittenBatches(): number {
    return this.#unwrittenBatches;
  }

  /** `write`, then waits for LevelDB to have the batch. */
  async batch(ops: BatchOp[]): Promise<void> {
    this.write(ops);
    await this.settled();
  }

  #journalOp(op: BatchOp): JournalOp {
    const sublevel = this.#numbers.get(op.sublevel as AnySublevel)!;
    const key = typeof op.key === 'string' ? textKeys.encode(op.key) : op.key;
    return op.type === 'put' ? { del: false, sublevel, key, value: op.value } : { del: true, sublevel, key };
  }

  #batchOp(op: JournalOp): BatchOp {
    const sublevel = this.#sublevels[op.sublevel];
    if (!sublevel) throw new Error(`the chain journal names sublevel ${op.sublevel}, which this store does not have`);
    const key = sublevel === (this.trie as AnySublevel) ? Buffer.from(op.key).toString('utf8') : op.key;
    return (op.del ? { type: 'del', sublevel, key } : { type: 'put', sublevel, key, value: op.value }) as BatchOp;
  }

  static canonKey = (n: bigint): Bytes => be64(n);
  static HEAD = new TextEncoder().encode('head');
}

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
 */
import { Level } from 'level';
import type { AbstractSublevel } from 'abstract-level';
import { be64 } from '../codec/bytes.ts';

type Bytes = Uint8Array;
type ParentKey = string | Bytes | Buffer;
export type BytesSublevel = AbstractSublevel<Level<Bytes, Bytes>, ParentKey, Bytes, Bytes>;
export type TrieSublevel = AbstractSublevel<Level<Bytes, Bytes>, ParentKey, string, Bytes>;

export type BatchOp =
  | { type: 'put'; sublevel: BytesSublevel; key: Bytes; value: Bytes }
  | { type: 'del'; sublevel: BytesSublevel; key: Bytes }
  | { type: 'put'; sublevel: TrieSublevel; key: string; value: Bytes };

/** Makes `sublevel`'s get and getMany answer from LevelDB on the calling thread (still as promises, for their callers). */
function readSynchronously<K>(sublevel: AbstractSublevel<Level<Bytes, Bytes>, ParentKey, K, Bytes>): void {
  const read = sublevel as unknown as { get(key: K): Promise<Bytes | undefined>; getMany(keys: K[]): Promise<(Bytes | undefined)[]> };
  read.get = async (key) => sublevel.getSync(key);
  read.getMany = async (keys) => keys.map((key) => sublevel.getSync(key));
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
  /** Every sublevel above: each opens a moment after the database (see open). */
  readonly #sublevels: readonly { open(): Promise<void> }[];

  /**
   * `readsOnThisThread`: reads run on the calling thread (LevelDB's synchronous get) instead of on
   * libuv's pool: for a thread with nothing else to do meanwhile, the RPC workers (docs/rpc-workers.md, "Reads").
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
    this.#sublevels = [...bytesSublevels, this.trie];
    if (readsOnThisThread) {
      for (const sublevel of bytesSublevels) readSynchronously(sublevel);
      readSynchronously(this.trie);
    }
  }

  async open(): Promise<void> {
    await this.db.open();
    // A sublevel opens a moment after its database, and a synchronous read (readsOnThisThread) does not wait for it.
    await Promise.all(this.#sublevels.map((sublevel) => sublevel.open()));
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /**
   * Applies all operations atomically (one LevelDB write batch). Not fsynced: a killed process
   * loses nothing (the batch is in LevelDB's log once written), a power cut may lose the last blocks
   * but never leaves half of one.
   */
  async batch(ops: BatchOp[]): Promise<void> {
    await this.db.batch(ops as never);
  }

  static canonKey = (n: bigint): Bytes => be64(n);
  static HEAD = new TextEncoder().encode('head');
}

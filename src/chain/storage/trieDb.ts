/**
 * Trie node storage for @ethereumjs/mpt. Nodes are content-addressed and never deleted (no
 * pruning), so a committed root stays readable forever and readers need no lock.
 *
 * A block execution writes into its own overlay; the overlay's nodes go into that block's atomic
 * import batch, so a crash never leaves a head whose state is half written. An execution that is
 * not imported (a stale mining template) is dropped with its overlay.
 */
import { bytesToUnprefixedHex, KECCAK256_RLP, type BatchDBOp, type DB } from '@ethereumjs/util';
import { Lru } from './lru.ts';
import type { BatchOp, TrieSublevel } from './store.ts';

type Value = string | Uint8Array;

/**
 * What one cached node costs beside its bytes: its key (a hex string), the map's entry, and the
 * Uint8Array with its ArrayBuffer and backing store (about 220 to 330 bytes, measured with Node 24).
 */
export const TRIE_CACHE_ENTRY_BYTES = 320;
/**
 * The node cache's budget, per reader (the main thread's and each RPC worker's): bounded by bytes
 * rather than by a count, since a node is 30 to 600 bytes (50,000 entries, the count it was bounded by,
 * could hold 18 to 37 MB of heap; docs/performance.md, "Memory").
 */
export const TRIE_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The root of an empty trie is no stored node: the library still asks for it (once per contract a
 * block creates, for its empty storage), and LevelDB would answer no after a read (docs/performance.md, "What was cut").
 */
const EMPTY_TRIE_ROOT = bytesToUnprefixedHex(KECCAK256_RLP);

/**
 * A key as one flat string. The library writes a node's key two hex digits at a time: a rope of 33
 * strings (about 1 kB of heap), which a cache entry would keep whole (docs/network.md "Sync figures").
 */
const flat = (key: string): string => Buffer.from(key, 'latin1').toString('latin1');

/**
 * Read-only view of committed trie nodes in LevelDB, with a cache of recently read and recently
 * committed nodes (content-addressed: a cached node can never be stale).
 */
export class CommittedTrieDb implements DB<string, Value> {
  readonly #cache: Lru<string, Uint8Array>;
  constructor(private readonly sublevel: TrieSublevel, cacheBytes = TRIE_CACHE_BYTES) {
    this.#cache = new Lru(cacheBytes, (node) => node.byteLength + TRIE_CACHE_ENTRY_BYTES);
  }
  async get(key: string): Promise<Value | undefined> {
    const hit = this.#cache.get(key);
    if (hit || key === EMPTY_TRIE_ROOT) return hit;
    const value = (await this.sublevel.get(key)) ?? undefined;
    if (value) this.#cache.set(flat(key), value);
    return value;
  }
  /**
   * Called with a block's nodes once its batch is handed to LevelDB (before or after it is on disk: only the
   * new state root, published after the write, leads to them): the next block reads its nodes from memory.
   */
  remember(writes: ReadonlyMap<string, Uint8Array>): void {
    for (const [key, value] of writes) this.#cache.set(flat(key), value);
  }
  async put(): Promise<void> {
    throw new Error('committed trie nodes are read-only; write through an OverlayTrieDb');
  }
  async del(): Promise<void> {}
  async batch(ops: BatchDBOp<string, Value>[]): Promise<void> {
    // Read-only views still receive commits of scratch changes (eth_call reverts them first),
    // which only reach here when a caller committed; refuse loudly.
    if (ops.some((o) => o.type === 'put')) throw new Error('committed trie nodes are read-only');
  }
  shallowCopy(): DB<string, Value> {
    return this;
  }
  async open(): Promise<void> {}
}

/** Buffers the writes of one block execution over the committed nodes. */
export class OverlayTrieDb implements DB<string, Value> {
  constructor(private readonly base: DB<string, Value>, readonly writes = new Map<string, Uint8Array>()) {}
  async get(key: string): Promise<Value | undefined> {
    return this.writes.get(key) ?? this.base.get(key);
  }
  async put(key: string, value: Value): Promise<void> {
    this.writes.set(key, value as Uint8Array);
  }
  async del(): Promise<void> {}
  async batch(ops: BatchDBOp<string, Value>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.writes.set(op.key, op.value as Uint8Array);
  }
  shallowCopy(): DB<string, Value> {
    return this;
  }
  async open(): Promise<void> {}

  /** The buffered nodes as operations for the import batch. */
  toBatch(sublevel: TrieSublevel): BatchOp[] {
    return [...this.writes].map(([key, value]) => ({ type: 'put', sublevel, key, value }));
  }
}

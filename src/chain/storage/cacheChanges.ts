/**
 * What one block's execution changed in a state manager's caches (account entries, code, slots), as each
 * entry's value before the block and after it, and their uses (docs/performance.md "Fixture tests",
 * docs/rpc-workers.md "Heads told ahead"): caches that hold the state on one side of the block take the
 * values of the other side and keep the rest, which the block did not change:
 * - the block runner, sent back to the state before the block (`evm_revert`, a template replaced, a reorg);
 * - the RPC workers' call VMs, moved to a new head's state (the changes come with the head), or back.
 * An account deleted or whose storage was cleared is forgotten whole: it is read again from the trie.
 */
import type { Caches } from '@ethereumjs/statemanager';
import { bytesToUnprefixedHex, type Address } from '@ethereumjs/util';

/** The library's caches by their two kinds of map, keyed by unprefixed hex. */
interface KeyedCache<V> {
  _lruCache?: { get(key: string): V | undefined; set(key: string, value: V): unknown; delete(key: string): unknown };
  _orderedMapCache?: { getElementByKey(key: string): V | undefined; setElement(key: string, value: V): unknown; eraseElementByKey(key: string): unknown };
}

interface AccountEntry { accountRLP: Uint8Array | undefined }
interface CodeEntry { code: Uint8Array | undefined }
type Slots = Map<string, Uint8Array>;

const read = <V>(cache: KeyedCache<V> | undefined, key: string): V | undefined =>
  cache?._lruCache ? cache._lruCache.get(key) : cache?._orderedMapCache?.getElementByKey(key);

function write<V>(cache: KeyedCache<V> | undefined, key: string, value: V | undefined): void {
  if (value === undefined) {
    cache?._lruCache?.delete(key);
    cache?._orderedMapCache?.eraseElementByKey(key);
  } else if (cache?._lruCache) cache._lruCache.set(key, value);
  else cache?._orderedMapCache?.setElement(key, value);
}

interface TypedCaches {
  readonly account?: KeyedCache<AccountEntry>;
  readonly code?: KeyedCache<CodeEntry>;
  readonly storage?: KeyedCache<Slots>;
}

function caches(of: Caches): TypedCaches {
  return {
    account: of.account as KeyedCache<AccountEntry> | undefined,
    code: of.code as KeyedCache<CodeEntry> | undefined,
    storage: of.storage as KeyedCache<Slots> | undefined,
  };
}

/**
 * Cache entries' values on one side of a block, by key (unprefixed hex): an account's encoding (null: it does
 * not exist), its code (null: none), a slot's encoded value; undefined where the entry is not cached there.
 * Plain maps, to be sent to another thread.
 */
export interface StateChanges {
  readonly accounts: ReadonlyMap<string, Uint8Array | null | undefined>;
  readonly code: ReadonlyMap<string, Uint8Array | null | undefined>;
  readonly slots: ReadonlyMap<string, ReadonlyMap<string, Uint8Array | undefined>>;
  readonly dropped: readonly string[];
}

/** The entries a block changed, with their values before it and after it. */
export interface BlockChanges {
  readonly before: StateChanges;
  readonly after: StateChanges;
}

/** A block's move of the state, from its parent's state root to its own, with its changes to the cache entries. */
export interface StateStep extends BlockChanges {
  readonly from: Uint8Array;
  readonly to: Uint8Array;
}

/** A block's changes as they happen, each entry noted before its first change. */
export class BlockCacheChanges {
  readonly #accounts = new Map<string, AccountEntry | undefined>();
  readonly #code = new Map<string, CodeEntry | undefined>();
  /** Slot values before the block by account; undefined where the slot was not cached. The cache changes an account's map in place. */
  readonly #slots = new Map<string, Map<string, Uint8Array | undefined>>();
  readonly #dropped = new Set<string>();

  /** The caches noted, typed once: a note is taken at every write of a block's execution. */
  readonly #caches: TypedCaches;

  constructor(of: Caches) {
    this.#caches = caches(of);
  }

  /** Before the account's entry changes. */
  account(address: Address): void {
    const key = bytesToUnprefixedHex(address.bytes);
    if (!this.#accounts.has(key)) this.#accounts.set(key, read(this.#caches.account, key));
  }

  /** Before the account's code entry changes. */
  code(address: Address): void {
    const key = bytesToUnprefixedHex(address.bytes);
    if (!this.#code.has(key)) this.#code.set(key, read(this.#caches.code, key));
  }

  /** Before one of the account's slots changes. */
  slot(address: Address, slot: Uint8Array): void {
    const account = bytesToUnprefixedHex(address.bytes);
    let before = this.#slots.get(account);
    if (!before) this.#slots.set(account, (before = new Map()));
    const key = bytesToUnprefixedHex(slot);
    if (!before.has(key)) before.set(key, read(this.#caches.storage, account)?.get(key));
  }

  /** The account is deleted or its whole storage cleared. */
  drop(address: Address): void {
    this.#dropped.add(bytesToUnprefixedHex(address.bytes));
  }

  /** The noted entries' values before the block, and as the caches hold them now, after it. */
  take(): BlockChanges {
    const { account, code, storage } = this.#caches;
    const dropped = [...this.#dropped];
    return {
      before: {
        accounts: new Map([...this.#accounts].map(([key, entry]) => [key, valueOf(entry, (e) => e.accountRLP)])),
        code: new Map([...this.#code].map(([key, entry]) => [key, valueOf(entry, (e) => e.code)])),
        slots: this.#slots,
        dropped,
      },
      after: {
        accounts: new Map([...this.#accounts.keys()].map((key) => [key, valueOf(read(account, key), (e) => e.accountRLP)])),
        code: new Map([...this.#code.keys()].map((key) => [key, valueOf(read(code, key), (e) => e.code)])),
        slots: new Map([...this.#slots].map(([address, slots]) => {
          const now = read(storage, address);
          return [address, new Map([...slots.keys()].map((key) => [key, now?.get(key)]))];
        })),
        dropped,
      },
    };
  }
}

const valueOf = <E>(entry: E | undefined, value: (e: E) => Uint8Array | undefined) => (entry === undefined ? undefined : value(entry) ?? null);

/** Takes one side's values of a block's changes into caches that hold the state on the other side; returns the number of entries written. */
export function applyChanges(into: Caches, changes: StateChanges): number {
  const typed = caches(into);
  const { account, code, storage } = typed;
  let written = 0;
  for (const [key, rlp] of changes.accounts) {
    write(account, key, rlp === undefined ? undefined : { accountRLP: rlp ?? undefined });
    written++;
  }
  for (const [key, bytes] of changes.code) {
    write(code, key, bytes === undefined ? undefined : { code: bytes ?? undefined });
    written++;
  }
  for (const [address, slots] of changes.slots) {
    writeSlots(storage, address, slots);
    written += slots.size;
  }
  for (const key of changes.dropped) forget(typed, key);
  return written;
}

/** Sets an account's cached slots to `slots`' values (undefined: not cached). The cache changes an account's map in place. */
function writeSlots(storage: KeyedCache<Slots> | undefined, address: string, slots: ReadonlyMap<string, Uint8Array | undefined>): void {
  let map = read(storage, address);
  for (const [key, value] of slots) {
    if (value === undefined) map?.delete(key);
    else {
      if (!map) write(storage, address, (map = new Map()));
      map.set(key, value);
    }
  }
}

function forget({ account, code, storage }: TypedCaches, key: string): void {
  write(account, key, undefined);
  write(code, key, undefined);
  write(storage, key, undefined);
}

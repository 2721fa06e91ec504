/**
 * What one block's execution changed in the block runner's state caches, noted before each entry's first
 * change: putting it back returns the caches to the state before the block, so that the runner, sent back
 * there (`evm_revert`, a template replaced, a reorg), keeps every account, slot and code it read instead
 * of reading them through the trie again (docs/performance.md "Fixture tests"). An entry the block only
 * read holds the same value before it. An account deleted or whose storage was cleared is forgotten whole.
 */
import type { Caches } from '@ethereumjs/statemanager';
import { bytesToUnprefixedHex, type Address } from '@ethereumjs/util';

/** The library's caches by their two kinds of map, keyed by unprefixed hex. */
interface KeyedCache<V> {
  _lruCache?: { get(key: string): V | undefined; set(key: string, value: V): unknown; delete(key: string): unknown };
  _orderedMapCache?: { getElementByKey(key: string): V | undefined; setElement(key: string, value: V): unknown; eraseElementByKey(key: string): unknown };
}

const read = <V>(cache: KeyedCache<V> | undefined, key: string): V | undefined =>
  cache?._lruCache ? cache._lruCache.get(key) : cache?._orderedMapCache?.getElementByKey(key);

function write<V>(cache: KeyedCache<V> | undefined, key: string, value: V | undefined): void {
  if (value === undefined) {
    cache?._lruCache?.delete(key);
    cache?._orderedMapCache?.eraseElementByKey(key);
  } else if (cache?._lruCache) cache._lruCache.set(key, value);
  else cache?._orderedMapCache?.setElement(key, value);
}

type Slots = Map<string, Uint8Array>;

export class CacheUndo {
  readonly #accounts = new Map<string, unknown>();
  readonly #code = new Map<string, unknown>();
  /** Slot values before the block by account; undefined where the slot was not cached. The cache changes an account's map in place. */
  readonly #slots = new Map<string, Map<string, Uint8Array | undefined>>();
  readonly #dropped = new Set<string>();

  constructor(private readonly caches: Caches) {}

  /** Before the account's entry changes. */
  account(address: Address): void {
    const key = bytesToUnprefixedHex(address.bytes);
    if (!this.#accounts.has(key)) this.#accounts.set(key, read(this.caches.account as KeyedCache<unknown>, key));
  }

  /** Before the account's code entry changes. */
  code(address: Address): void {
    const key = bytesToUnprefixedHex(address.bytes);
    if (!this.#code.has(key)) this.#code.set(key, read(this.caches.code as KeyedCache<unknown>, key));
  }

  /** Before one of the account's slots changes. */
  slot(address: Address, slot: Uint8Array): void {
    const account = bytesToUnprefixedHex(address.bytes);
    let before = this.#slots.get(account);
    if (!before) this.#slots.set(account, (before = new Map()));
    const key = bytesToUnprefixedHex(slot);
    if (!before.has(key)) before.set(key, read(this.caches.storage as KeyedCache<Slots>, account)?.get(key));
  }

  /** The account is deleted or its whole storage cleared. */
  drop(address: Address): void {
    this.#dropped.add(bytesToUnprefixedHex(address.bytes));
  }

  /** Puts the noted entries back as they were before the block (the caches then hold that state). */
  restore(): void {
    const { account, code } = this.caches as { account?: KeyedCache<unknown>; code?: KeyedCache<unknown> };
    const storage = this.caches.storage as KeyedCache<Slots> | undefined;
    for (const [key, value] of this.#accounts) write(account, key, value);
    for (const [key, value] of this.#code) write(code, key, value);
    for (const [address, slots] of this.#slots) {
      let map = read(storage, address);
      for (const [key, value] of slots) {
        if (value === undefined) map?.delete(key);
        else {
          if (!map) write(storage, address, (map = new Map()));
          map.set(key, value);
        }
      }
    }
    for (const key of this.#dropped) for (const cache of [account, storage, code]) write(cache as KeyedCache<unknown>, key, undefined);
  }
}

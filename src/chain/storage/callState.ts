/**
 * The state manager of the call VMs (src/chain/calls.ts; docs/rpc-workers.md, "Calls"): its caches
 * keep what calls read across the revert that ends each call. The library's caches note, for each key
 * a checkpoint first touches, what the cache held before; a revert puts that back, and a key first
 * *read* inside the checkpoint held nothing, so a revert dropped every value a call had read, and the
 * next call read the same accounts, code and slots from the trie again.
 *
 * A value read from the trie inside a checkpoint is the value under the VM's state root: calls never
 * write to the tries (their writes stay in the caches, and nothing flushes them while a call runs).
 * So it is noted as the key's value *before* the checkpoint, and the revert keeps it. Not so for a
 * slot of an account whose storage the call cleared (a contract created over an old one) or deleted:
 * those reads follow the call's own writes, and are left to the library.
 *
 * Kept values are values under one root: `setStateRoot` clears the caches (the library does), and so
 * does `keepReadsWithin` once more than its bound were kept; a move across a block whose changes it was
 * given (`applyCacheChanges`) keeps them.
 */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Caches, type AccountCache, type CodeCache, type StorageCache } from '@ethereumjs/statemanager';
import { bytesToUnprefixedHex, ValueEncoding, type Account, type Address, type DB } from '@ethereumjs/util';
import type { StateChanges } from './cacheChanges.ts';
import { BatchedStateManager, BatchedTrie } from './stateTrie.ts';

/** A cache's notes of what each checkpoint level first changed (the library's, not in its typings). */
interface Noted<V> { readonly _diffCache: Map<string, V>[]; readonly _checkpoints: number }
type SlotNotes = Map<string, Uint8Array | undefined>;

/** Values kept across calls, at most, before the caches are emptied between two calls. */
export const KEPT_READS = 50_000;

export class CallStateManager extends BatchedStateManager {
  #kept = 0;
  /** Accounts whose storage the running call cleared or deleted (hex): their slots are not kept. */
  readonly #cleared = new Set<string>();

  constructor(opts: ConstructorParameters<typeof BatchedStateManager>[0], private readonly bound = KEPT_READS) {
    super(opts);
  }

  /** Values kept since the caches were last emptied. */
  get keptReads(): number {
    return this.#kept;
  }

  /** Ends a call (after its revert): empties the caches if they keep more than the bound. */
  keepReadsWithin(): void {
    this.#cleared.clear();
    if (this.#kept <= this.bound) return;
    this._caches?.clear();
    this.#kept = 0;
  }

  override applyCacheChanges(changes: StateChanges): number {
    const written = super.applyCacheChanges(changes);
    this.#kept += written;
    return written;
  }

  override async setStateRoot(stateRoot: Uint8Array, clearCache = true): Promise<void> {
    await super.setStateRoot(stateRoot, clearCache);
    if (clearCache) this.#kept = 0;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const cache = this._caches!.account as AccountCache & Noted<unknown>;
    const elem = cache.get(address);
    if (elem !== undefined) return elem.accountRLP !== undefined ? this.accountFrom(elem.accountRLP) : undefined;
    const id = bytesToUnprefixedHex(address.bytes);
    const unnoted = cache._checkpoints > 0 && !cache._diffCache[cache._checkpoints]!.has(id);
    const account = await super.getAccount(address);
    if (unnoted) this.#keep(cache, id, cache.get(address));
    return account;
  }

  // A cached code or slot is answered here as the library answers it (a second cache lookup otherwise: 2–3 % of a balanceOf call).
  override async getCode(address: Address): Promise<Uint8Array> {
    const cache = this._caches!.code as CodeCache & Noted<unknown>;
    const cached = cache.get(address);
    if (cached !== undefined) return cached.code ?? new Uint8Array(0);
    const id = bytesToUnprefixedHex(address.bytes);
    const unnoted = cache._checkpoints > 0 && !cache._diffCache[cache._checkpoints]!.has(id);
    const code = await super.getCode(address);
    // The library caches no code for an account that is missing or has none.
    if (unnoted && cache._diffCache[cache._checkpoints]!.has(id)) this.#keep(cache, id, cache.get(address));
    return code;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const cache = this._caches!.storage as StorageCache & Noted<SlotNotes>;
    const cached = key.length === 32 ? cache.get(address, key) : undefined;
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const id = bytesToUnprefixedHex(address.bytes);
    const slot = bytesToUnprefixedHex(key);
    const unnoted = !this.#cleared.has(id) && cache._checkpoints > 0
      && !cache._diffCache[cache._checkpoints]!.get(id)?.has(slot);
    const value = await super.getStorage(address, key);
    const noted = cache._checkpoints > 0 ? cache._diffCache[cache._checkpoints]!.get(id) : undefined;
    if (unnoted && noted?.has(slot)) {
      noted.set(slot, cache.get(address, key));
      this.#kept++;
    }
    return value;
  }

  override async clearStorage(address: Address): Promise<void> {
    this.#cleared.add(bytesToUnprefixedHex(address.bytes));
    return super.clearStorage(address);
  }

  override deleteAccount(address: Address): Promise<void> {
    this.#cleared.add(bytesToUnprefixedHex(address.bytes));
    return super.deleteAccount(address);
  }

  /** Notes `value`, just read from the trie, as what `cache` held for `id` before this checkpoint. */
  #keep(cache: Noted<unknown>, id: string, value: unknown): void {
    if (value === undefined) return;
    cache._diffCache[cache._checkpoints]!.set(id, value);
    this.#kept++;
  }
}

/** A CallStateManager over the trie at `root` in `db`, its trie sharing `readCache` (see BatchedTrie). */
export function callStateManagerAt(
  db: DB<string, string | Uint8Array>, root: Uint8Array, common: Common, readCache?: BatchedTrie['readCache'], bound = KEPT_READS,
): CallStateManager {
  const trie = new BatchedTrie({ db, root, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common });
  trie.readCache = readCache;
  return new CallStateManager({ trie, common, caches: new Caches() }, bound);
}

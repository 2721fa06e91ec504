/**
 * The account and storage tries of a block execution, updated once per block. With state caches,
 * the state manager writes every touched account and slot into the tries when the state root is
 * asked for; the library's trie does that one key at a time, walking from the root and re-hashing
 * the whole path for each. Here the writes are gathered and applied in one descent: each touched
 * node is read, re-encoded and hashed once, whatever the number of keys under it.
 *
 * Keys are keccak hashes (fixed length), so no value sits in a branch node.
 *
 * Nodes are kept decoded by hash (DECODED_NODES of them, shared by every update and read): a hash
 * fixes a node's content, so an entry never goes stale, and the nodes one block's update made are the
 * ones the next block's update, and the reads at its state, descend through first (docs/network.md
 * "Sync figures").
 */
import { MerklePatriciaTrie, type MPTOpts } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToUnprefixedHex, concatBytes, createAccountFromRLP, equalsBytes, unpadBytes } from '@ethereumjs/util';
import { hex, keccak256 } from '../codec/bytes.ts';
import { encodeRlp } from '../codec/rlp.ts';
import { applyChanges, BlockCacheChanges, type BlockChanges, type StateChanges } from './cacheChanges.ts';
import { Lru } from './lru.ts';
import {
  buildNode, byFirstNibble, emptyBranch, EMPTY, extensionNode, fromCompact, leafNode, reference, toNibbles, type KeyPath, type RawItem, type RawNode,
} from './trieNodes.ts';

/** A write: a value, or undefined to delete. */
type Write = KeyPath<Uint8Array | undefined>;

const isPresent = (item: RawItem) => Array.isArray(item) || item.length > 0;

/**
 * Hashed keys by key (hex): a block's accounts (its senders, recipients, coinbase) and slots are hashed
 * at each read and write of them, and again by the next blocks. Never changed (a key's hash is fixed).
 */
const HASHED_KEYS = 4_096;
const hashedKeys = new Lru<string, Uint8Array>(HASHED_KEYS);

/** An account of its own with the same fields. */
const copyOf = (a: Account): Account => new Account(a.nonce, a.balance, a.storageRoot, a.codeHash);

/** The library's own key for an account's storage trie: its hashed address (or that hash, given), unprefixed hex. */
const storageTrieId = (addressOrHash: Address | { bytes: Uint8Array } | Uint8Array): string =>
  bytesToUnprefixedHex(addressOrHash instanceof Uint8Array ? addressOrHash : keccak256(addressOrHash.bytes));

/** Trie nodes kept decoded, by hash (hex); never changed once made (updates build new nodes). */
const DECODED_NODES = 1_024;
const decodedNodes = new Lru<string, RawNode>(DECODED_NODES);

/** A trie's own database, as the batched reads and updates use it. */
interface NodeDb {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
}

class MissingNode extends Error {}

/** The node `ref` names (embedded, or by hash through DECODED_NODES and `db`); undefined for an empty one. */
async function resolveNode(db: NodeDb, ref: RawItem): Promise<RawNode | undefined> {
  if (Array.isArray(ref)) return ref;
  if (ref.length === 0) return undefined;
  const id = hex(ref);
  let node = decodedNodes.get(id);
  if (!node) {
    const encoded = await db.get(ref);
    if (!encoded) throw new MissingNode(`missing trie node ${id}`);
    decodedNodes.set(id, (node = RLP.decode(encoded) as RawNode));
  }
  return node;
}

/**
 * The value at `path` (nibbles) under `root`, or null, in one walk down through DECODED_NODES: the
 * library's lookup runs a general trie walker (a queue, a controller, node objects) for each read,
 * about a fifth of an RPC worker's time in a call after a new block (docs/rpc-workers.md, "Reads").
 */
async function lookup(db: NodeDb, root: Uint8Array, path: Uint8Array): Promise<Uint8Array | null> {
  let ref: RawItem = root;
  let at = 0;
  for (;;) {
    const node = await resolveNode(db, ref);
    if (!node) return null;
    if (node.length === 17) {
      if (at === path.length) return (node[16] as Uint8Array).length ? (node[16] as Uint8Array) : null;
      ref = node[path[at++]!]!;
      continue;
    }
    const { path: part, leaf } = fromCompact(node[0] as Uint8Array);
    if (leaf ? path.length - at !== part.length : path.length - at < part.length) return null;
    for (let i = 0; i < part.length; i++) if (part[i] !== path[at + i]) return null;
    at += part.length;
    if (leaf) return node[1] as Uint8Array;
    ref = node[1]!;
  }
}

/** Applies writes to a trie in one descent; new nodes are put into `db` (the trie's own database) at the end. */
class TrieUpdate {
  /** The nodes the new shape refers to by hash: [hash, encoding]. */
  readonly #hashed: [Uint8Array, Uint8Array][] = [];
  readonly #refer = (node: RawNode): RawItem => reference(node, (hash, encoded) => {
    this.#hashed.push([hash, encoded]);
    decodedNodes.set(hex(hash), node);
  });

  constructor(private readonly db: NodeDb) {}

  async apply(root: Uint8Array, emptyRoot: Uint8Array, writes: readonly Write[]): Promise<Uint8Array> {
    const node = await this.update(equalsBytes(root, emptyRoot) ? EMPTY : root, writes);
    if (!node) return emptyRoot;
    const encoded = encodeRlp(node);
    const hash = keccak256(encoded);
    decodedNodes.set(hex(hash), node);
    for (const [key, value] of this.#hashed) await this.db.put(key, value);
    await this.db.put(hash, encoded);
    return hash;
  }

  /** The node at `ref` after `writes` (paths relative to it); undefined when nothing is left under it. */
  private async update(ref: RawItem, writes: readonly Write[]): Promise<RawNode | undefined> {
    const node = await resolveNode(this.db, ref);
    if (!node) return buildNode(writes.filter((w): w is KeyPath<Uint8Array> => w.value !== undefined), this.#refer);
    if (node.length === 17) return this.updateBranch(node, writes);
    const { path, leaf } = fromCompact(node[0] as Uint8Array);
    const under = (w: Write) => w.path.length >= path.length && path.every((n, i) => w.path[i] === n);
    if (leaf) {
      // Writes to this very key replace (or delete) its value; any other key splits the leaf.
      if (writes.every((w) => w.path.length === path.length && under(w))) {
        const value = writes[writes.length - 1]!.value;
        return value && leafNode(path, value);
      }
      return this.updateBranch(this.asBranch(path, node[1] as Uint8Array, true), writes);
    }
    if (writes.every(under)) {
      const child = await this.update(node[1]!, writes.map((w) => ({ path: w.path.subarray(path.length), value: w.value })));
      return this.joinPath(path, child);
    }
    return this.updateBranch(this.asBranch(path, node[1]!, false), writes);
  }

  /** A leaf or extension seen as a branch with one child, so keys that leave its path can join it. */
  private asBranch(path: Uint8Array, item: RawItem, leaf: boolean): RawNode {
    const branch = emptyBranch();
    const rest = path.subarray(1);
    branch[path[0]!] = leaf ? leafNode(rest, item as Uint8Array) : rest.length ? extensionNode(rest, item) : item;
    return branch;
  }

  private async updateBranch(branch: RawNode, writes: readonly Write[]): Promise<RawNode | undefined> {
    const updated = new Map<number, RawNode | undefined>();
    for (const [nibble, group] of byFirstNibble(writes)) updated.set(nibble, await this.update(branch[nibble]!, group));
    const present = (nibble: number) => (updated.has(nibble) ? updated.get(nibble) !== undefined : isPresent(branch[nibble]!));
    const used = [...Array(16).keys()].filter(present);
    if (used.length === 0) return undefined;
    if (used.length === 1) {
      // One child left: the branch folds into it (nodes are hashed only once the shape is final).
      const nibble = used[0]!;
      return this.joinPath(Uint8Array.of(nibble), updated.has(nibble) ? updated.get(nibble) : await resolveNode(this.db, branch[nibble]!));
    }
    const next = [...branch];
    for (let nibble = 0; nibble < 16; nibble++) {
      // A node object here is either new or the one child of a split leaf or extension (asBranch): refer to it properly.
      const child = updated.has(nibble) ? updated.get(nibble) : branch[nibble];
      if (updated.has(nibble) || Array.isArray(child)) next[nibble] = child ? this.#refer(child as RawNode) : EMPTY;
    }
    return next;
  }

  /** `path` followed by `child`, as one node. */
  private joinPath(path: Uint8Array, child: RawNode | undefined): RawNode | undefined {
    if (!child) return undefined;
    if (child.length === 17) return extensionNode(path, this.#refer(child));
    const inner = fromCompact(child[0] as Uint8Array);
    const joined = concatBytes(path, inner.path);
    return inner.leaf ? leafNode(joined, child[1] as Uint8Array) : extensionNode(joined, child[1]!);
  }
}

/**
 * A trie (the account trie, or a storage trie) whose puts and deletes wait for `applyWrites` (the
 * state manager's flush), which applies them together. Reads apply waiting writes first.
 */
export class BatchedTrie extends MerklePatriciaTrie {
  readonly #writes = new Map<string, Write>();
  /** For a storage trie: the account it belongs to, whose storage root follows its writes. */
  owner?: Address;
  /**
   * Values read, by root and key (a root fixes every value under it, so an entry never goes stale),
   * shared with the trie's storage-trie copies: eth_call's reads outlive the checkpoint each call reverts.
   */
  readCache?: Lru<string, Uint8Array | null>;

  get hasWrites(): boolean {
    return this.#writes.size > 0;
  }

  /** The library's key hashing (keccak256 here), each key's hash kept in HASHED_KEYS; its copy of each hash is skipped too. */
  override appliedKey(key: Uint8Array): Uint8Array {
    if (!this._opts.useKeyHashing || this._opts.useKeyHashingFunction !== keccak256) return super.appliedKey(key);
    const id = hex(key);
    let hashed = hashedKeys.get(id);
    if (!hashed) hashedKeys.set(id, (hashed = keccak256(key)));
    return hashed;
  }

  override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    const hashed = skipKeyTransform ? key : this.appliedKey(key);
    this.#writes.set(hex(hashed), { path: toNibbles(hashed), value: value?.length ? value : undefined });
  }

  override async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
    await this.put(key, null, skipKeyTransform);
  }

  override async get(key: Uint8Array, throwIfMissing = false): Promise<Uint8Array | null> {
    await this.applyWrites();
    // An empty trie (a new contract's storage) holds no key. The library would look its root up in the
    // database, find no node, and make and catch an error (with its stack trace) to answer null.
    if (!throwIfMissing && equalsBytes(this.root(), this.EMPTY_TRIE_ROOT)) return null;
    if (!this.readCache) return this.read(key, throwIfMissing);
    const id = hex(this.root()) + hex(key);
    let value = this.readCache.get(id);
    if (value === undefined) {
      value = await this.read(key, throwIfMissing);
      this.readCache.set(id, value);
    }
    return value;
  }

  /** The value at `key`, as the library's get answers it (null where a node is missing, unless `throwIfMissing`). */
  private async read(key: Uint8Array, throwIfMissing: boolean): Promise<Uint8Array | null> {
    if (this._opts.keyPrefix) return super.get(key, throwIfMissing);
    try {
      return await lookup(this.database(), this.root(), toNibbles(this.appliedKey(key)));
    } catch (err) {
      if (!(err instanceof MissingNode)) throw err;
      // The library's own walk throws its own error.
      return throwIfMissing ? super.get(key, true) : null;
    }
  }

  /** Storage tries are made as copies of the account trie: they batch their writes too. */
  override shallowCopy(includeCheckpoints = true, opts?: MPTOpts): BatchedTrie {
    const copy = new BatchedTrie({ ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...opts });
    if (includeCheckpoints && this.hasCheckpoints()) copy._db.setCheckpoints(this._db.checkpoints);
    copy.readCache = this.readCache;
    return copy;
  }

  async applyWrites(): Promise<void> {
    if (this.#writes.size === 0) return;
    const writes = [...this.#writes.values()];
    this.#writes.clear();
    this.root(await new TrieUpdate(this.database()).apply(this.root(), this.EMPTY_TRIE_ROOT, writes));
  }
}

/**
 * A state manager over a BatchedTrie. Its flush first lets the library hand every storage
 * and account write to the tries (where they wait), then applies the storage tries' writes, gives
 * their accounts the new storage roots, and applies the account trie's writes last.
 */
export class BatchedStateManager extends MerkleStateManager {
  /**
   * Storage tries by hashed address, kept when a revert drops the library's own map: making one
   * costs more than a simple eth_call (which reverts every time). One is reused only while it has
   * the storage root a new copy would get and no waiting writes, so it is the same as a new copy.
   */
  readonly #storageTries = new Lru<string, BatchedTrie>(64);
  /** Accounts written (put or deleted) since `recordWrites` (one Address object may repeat another); undefined when not recording. */
  #written: Set<Address> | undefined;
  /** The caches' entries noted before each write since `recordWrites`; undefined when not recording. */
  #changes: BlockCacheChanges | undefined;
  /**
   * Accounts decoded from the state cache's encodings, by encoding (the cache makes a new one at every
   * put): the library decodes the cached encoding at every getAccount, several times per transaction.
   * An account put is noted with the encoding the cache made of it, so a read after a write decodes
   * nothing either (a balanceOf call reads back the three accounts it writes).
   */
  readonly #decoded = new WeakMap<Uint8Array, Account>();
  /** The storage tries the flush wrote slots into, for their accounts' storage roots. */
  readonly #storageWritten = new Set<BatchedTrie>();

  /** The account an encoding of the state cache holds, as createAccountFromRLP gives it: a new object each time, which the caller may change. */
  protected accountFrom(rlp: Uint8Array): Account {
    let decoded = this.#decoded.get(rlp);
    if (!decoded) this.#decoded.set(rlp, (decoded = createAccountFromRLP(rlp)));
    return copyOf(decoded);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const elem = this._caches?.account?.get(address);
    if (elem === undefined) return super.getAccount(address);
    return elem.accountRLP !== undefined ? this.accountFrom(elem.accountRLP) : undefined;
  }

  override putAccount(address: Address, account?: Account): Promise<void> {
    this.#written?.add(address);
    this.#changes?.account(address);
    // The library's putAccount writes the cache before it returns (its body awaits nothing then).
    const done = super.putAccount(address, account);
    const rlp = account && this._caches?.account?.get(address)?.accountRLP;
    // A copy: the caller may change its account afterwards.
    if (rlp !== undefined) this.#decoded.set(rlp, copyOf(account!));
    return done;
  }

  /**
   * With a storage cache, the write goes to the cache alone. The library's putStorage also writes it
   * through to the storage trie and the account at once (`cache.put(...) ?? write`: the cache's put returns
   * nothing, so the write-through always runs), and the flush writes it again: an account encoding and a
   * trie write more per SSTORE for nothing. The cache (an ordered map) keeps every write until the flush,
   * and a revert drops the write from the cache as it dropped the storage trie written through.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const storage = this._caches?.storage;
    this.#changes?.slot(address, key);
    if (!storage || key.length !== 32 || value.length > 32) return super.putStorage(address, key, value);
    if (!(await this.getAccount(address))) return super.putStorage(address, key, value);
    storage.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /**
   * A deleted account's storage goes with it: its storage trie is forgotten too, so an account made
   * again at the address (CREATE2 after a SELFDESTRUCT in its creating transaction) starts from its own,
   * empty, storage root. The library keeps the old trie and writes the new account's storage into it,
   * where the deleted slots come back. (A revert drops every storage trie anyway.)
   */
  override deleteAccount(address: Address): Promise<void> {
    this.#written?.add(address);
    this.#changes?.drop(address);
    const id = storageTrieId(address);
    delete this._storageTries[id];
    this.#storageTries.delete(id);
    return super.deleteAccount(address);
  }

  /**
   * The flush's write of one cached slot, with a storage cache: into the storage trie alone. The library
   * also encodes and puts the account with the trie's root after every slot; flush() gives each account
   * its storage root once, after all its slots are applied.
   */
  protected override async _writeContractStorage(address: Address, account: Account, key: Uint8Array, value: Uint8Array): Promise<void> {
    const trie = this._getStorageTrie(address, account) as BatchedTrie;
    this.#storageWritten.add(trie);
    if (!this._caches?.storage) return super._writeContractStorage(address, account, key, value);
    if (value.length) await trie.put(key, RLP.encode(value));
    else await trie.del(key);
  }

  override putCode(address: Address, value: Uint8Array): Promise<void> {
    this.#changes?.code(address);
    return super.putCode(address, value);
  }

  override clearStorage(address: Address): Promise<void> {
    this.#changes?.drop(address);
    return super.clearStorage(address);
  }

  /** Starts noting the accounts written and the cache entries they change (a block's execution; calls, which revert, never ask). */
  recordWrites(): void {
    this.#written = new Set();
    this.#changes = this._caches && new BlockCacheChanges(this._caches);
  }

  /** The cache entries changed since `recordWrites`, before and now (undefined without caches); stops noting them. */
  takeChanges(): BlockChanges | undefined {
    const changes = this.#changes?.take();
    this.#changes = undefined;
    return changes;
  }

  /** Checkpoints open now. */
  checkpointDepth(): number {
    return this._checkpointCount;
  }

  /** Reverts the checkpoints opened since the depth was `depth`: what a transaction that threw midway left open (docs/chain.md "Transactions that throw"). */
  async revertTo(depth: number): Promise<void> {
    while (this._checkpointCount > depth) await this.revert();
  }

  /** Entries the state caches hold: accounts, contracts with cached storage, code. */
  cachedEntries(): number {
    const caches = this._caches;
    return (caches?.account?.size() ?? 0) + (caches?.storage?.size() ?? 0) + (caches?.code?.size() ?? 0);
  }

  /**
   * Takes one side's values of a block's changes into caches that hold the state on its other side
   * (cacheChanges.ts); the root then moves with `setStateRoot(root, false)`. Returns the entries written.
   */
  applyCacheChanges(changes: StateChanges): number {
    return this._caches ? applyChanges(this._caches, changes) : 0;
  }

  /** The accounts written since `recordWrites` (some perhaps reverted since), by 0x address; stops recording. */
  takeWritten(): Map<string, Address> {
    const written = new Map<string, Address>();
    for (const address of this.#written ?? []) written.set(address.toString(), address);
    this.#written = undefined;
    return written;
  }

  protected override _getStorageTrie(addressOrHash: Address | { bytes: Uint8Array } | Uint8Array, rootAccount?: Account): MerklePatriciaTrie {
    const id = storageTrieId(addressOrHash);
    let trie = this._storageTries[id] as BatchedTrie | undefined;
    if (!trie) {
      const kept = this.#storageTries.get(id);
      const root = rootAccount?.storageRoot ?? this._trie.EMPTY_TRIE_ROOT;
      if (kept && !kept.hasWrites && equalsBytes(kept.root(), root)) this._storageTries[id] = trie = kept;
      else this.#storageTries.set(id, (trie = super._getStorageTrie(addressOrHash, rootAccount) as BatchedTrie));
    }
    // Storage is written with the account's address (reads may pass its hash).
    if (addressOrHash instanceof Address) trie.owner = addressOrHash;
    return trie;
  }

  override async flush(): Promise<void> {
    await super.flush();
    let storageRootsMoved = false;
    const written = [...this.#storageWritten];
    this.#storageWritten.clear();
    for (const trie of written) {
      await trie.applyWrites();
      const account = trie.owner && (await this.getAccount(trie.owner));
      if (!account || equalsBytes(account.storageRoot, trie.root())) continue;
      account.storageRoot = trie.root();
      await this.putAccount(trie.owner!, account);
      storageRootsMoved = true;
    }
    // The accounts just given their storage roots reach the account trie.
    if (storageRootsMoved) await super.flush();
    await (this._trie as BatchedTrie).applyWrites();
    // The library's map of storage tries gains one per contract touched until a revert empties it (and a
    // flush walked them all); the recent ones are found again in #storageTries.
    this._storageTries = {};
  }
}

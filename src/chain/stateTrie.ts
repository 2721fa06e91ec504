/**
 * The account trie of a block execution, updated once per block. With state caches, the state
 * manager writes every touched account into the trie when the state root is asked for; the
 * library's trie does that one key at a time, walking from the root and re-hashing the whole path
 * for each. Here the writes are gathered and applied in one descent: each touched node is read,
 * re-encoded and hashed once, whatever the number of accounts under it.
 *
 * Keys are keccak hashes (fixed length), so no value sits in a branch node.
 */
import { MerklePatriciaTrie, type MPTOpts } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bytesToHex, concatBytes, type Account } from '@ethereumjs/util';
import { keccak256 } from './bytes.ts';

/** A node as RLP decodes it: 17 items (branch) or 2 (leaf or extension: compact path, then value or child). */
type RawNode = RawItem[];
/** A child reference: empty, a 32-byte hash, or an embedded node (encoding under 32 bytes). */
type RawItem = Uint8Array | RawNode;

interface Write {
  /** The key's nibbles from the current depth on. */
  readonly path: Uint8Array;
  /** Undefined deletes. */
  readonly value: Uint8Array | undefined;
}

const EMPTY = new Uint8Array();

const toNibbles = (bytes: Uint8Array): Uint8Array => {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4;
    out[2 * i + 1] = bytes[i]! & 15;
  }
  return out;
};

function compactPath(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  out[0] = ((leaf ? 2 : 0) + odd) << 4 | (odd ? path[0]! : 0);
  for (let i = odd, j = 1; i < path.length; i += 2, j++) out[j] = (path[i]! << 4) | path[i + 1]!;
  return out;
}

function fromCompact(compact: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const nibbles = toNibbles(compact);
  const flag = nibbles[0]!;
  return { path: nibbles.subarray(flag & 1 ? 1 : 2), leaf: (flag & 2) !== 0 };
}

const isPresent = (item: RawItem) => Array.isArray(item) || item.length > 0;

/** Writes grouped by their first nibble, with that nibble taken off their paths. */
function byFirstNibble(writes: readonly Write[]): Map<number, Write[]> {
  const groups = new Map<number, Write[]>();
  for (const w of writes) {
    const group = groups.get(w.path[0]!) ?? [];
    group.push({ path: w.path.subarray(1), value: w.value });
    groups.set(w.path[0]!, group);
  }
  return groups;
}

const leafNode = (path: Uint8Array, value: Uint8Array): RawNode => [compactPath(path, true), value];
const extensionNode = (path: Uint8Array, child: RawItem): RawNode => [compactPath(path, false), child];

/** Applies writes to a trie in one descent; new nodes are put into `db` (the trie's own database). */
class TrieUpdate {
  constructor(private readonly db: { get(key: Uint8Array): Promise<Uint8Array | undefined>; put(key: Uint8Array, value: Uint8Array): Promise<void> }) {}

  async apply(root: Uint8Array, emptyRoot: Uint8Array, writes: readonly Write[]): Promise<Uint8Array> {
    const node = await this.update(root.length && bytesToHex(root) !== bytesToHex(emptyRoot) ? root : EMPTY, writes);
    if (!node) return emptyRoot;
    const encoded = RLP.encode(node);
    const hash = keccak256(encoded);
    await this.db.put(hash, encoded);
    return hash;
  }

  private async resolve(ref: RawItem): Promise<RawNode | undefined> {
    if (Array.isArray(ref)) return ref;
    if (ref.length === 0) return undefined;
    const encoded = await this.db.get(ref);
    if (!encoded) throw new Error(`missing trie node ${bytesToHex(ref)}`);
    return RLP.decode(encoded) as RawNode;
  }

  /** How a parent refers to `node`: embedded when its encoding is under 32 bytes, else by hash (and stored). */
  private async reference(node: RawNode | undefined): Promise<RawItem> {
    if (!node) return EMPTY;
    const encoded = RLP.encode(node);
    if (encoded.length < 32) return node;
    const hash = keccak256(encoded);
    await this.db.put(hash, encoded);
    return hash;
  }

  /** The node at `ref` after `writes` (paths relative to it); undefined when nothing is left under it. */
  private async update(ref: RawItem, writes: readonly Write[]): Promise<RawNode | undefined> {
    const node = await this.resolve(ref);
    if (!node) return this.build(writes.filter((w) => w.value !== undefined));
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
    const branch: RawNode = Array.from({ length: 17 }, () => EMPTY);
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
      return this.joinPath(Uint8Array.of(nibble), updated.has(nibble) ? updated.get(nibble) : await this.resolve(branch[nibble]!));
    }
    const next = [...branch];
    for (let nibble = 0; nibble < 16; nibble++) {
      // A node object here is either new or the one child of a split leaf or extension (asBranch): refer to it properly.
      const child = updated.has(nibble) ? updated.get(nibble) : branch[nibble];
      if (updated.has(nibble) || Array.isArray(child)) next[nibble] = await this.reference(child as RawNode | undefined);
    }
    return next;
  }

  /** `path` followed by `child`, as one node. */
  private async joinPath(path: Uint8Array, child: RawNode | undefined): Promise<RawNode | undefined> {
    if (!child) return undefined;
    if (child.length === 17) return extensionNode(path, await this.reference(child));
    const inner = fromCompact(child[0] as Uint8Array);
    const joined = concatBytes(path, inner.path);
    return inner.leaf ? leafNode(joined, child[1] as Uint8Array) : extensionNode(joined, child[1]!);
  }

  /** A fresh subtree holding `writes` (all puts, distinct paths). */
  private async build(writes: readonly Write[]): Promise<RawNode | undefined> {
    if (writes.length <= 1) return writes[0] && leafNode(writes[0].path, writes[0].value!);
    const first = writes[0]!.path;
    let shared = 0;
    while (shared < first.length && writes.every((w) => w.path[shared] === first[shared])) shared++;
    if (shared > 0) {
      const child = await this.build(writes.map((w) => ({ path: w.path.subarray(shared), value: w.value })));
      return extensionNode(first.subarray(0, shared), await this.reference(child));
    }
    const branch: RawNode = Array.from({ length: 17 }, () => EMPTY);
    for (const [nibble, group] of byFirstNibble(writes)) branch[nibble] = await this.reference(await this.build(group));
    return branch;
  }
}

/**
 * A trie (the account trie, or a storage trie) whose puts and deletes wait for `applyWrites` (the
 * state manager's flush), which applies them together. Reads apply waiting writes first.
 */
export class BatchedAccountTrie extends MerklePatriciaTrie {
  readonly #writes = new Map<string, Write>();
  /** For a storage trie: the account it belongs to, whose storage root follows its writes. */
  owner?: Address;

  get hasWrites(): boolean {
    return this.#writes.size > 0;
  }

  override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    const hashed = skipKeyTransform ? key : this.appliedKey(key);
    this.#writes.set(bytesToHex(hashed), { path: toNibbles(hashed), value: value?.length ? value : undefined });
  }

  override async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
    await this.put(key, null, skipKeyTransform);
  }

  override async get(key: Uint8Array, throwIfMissing = false): Promise<Uint8Array | null> {
    await this.applyWrites();
    return super.get(key, throwIfMissing);
  }

  /** Storage tries are made as copies of the account trie: they batch their writes too. */
  override shallowCopy(includeCheckpoints = true, opts?: MPTOpts): BatchedAccountTrie {
    const copy = new BatchedAccountTrie({ ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...opts });
    if (includeCheckpoints && this.hasCheckpoints()) copy._db.setCheckpoints(this._db.checkpoints);
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
 * A state manager over a BatchedAccountTrie. Its flush first lets the library hand every storage
 * and account write to the tries (where they wait), then applies the storage tries' writes, gives
 * their accounts the new storage roots, and applies the account trie's writes last.
 */
export class BatchedStateManager extends MerkleStateManager {
  protected override _getStorageTrie(addressOrHash: Address | { bytes: Uint8Array } | Uint8Array, rootAccount?: Account): MerklePatriciaTrie {
    const trie = super._getStorageTrie(addressOrHash, rootAccount) as BatchedAccountTrie;
    // Storage is written with the account's address (reads may pass its hash).
    if (addressOrHash instanceof Address) trie.owner = addressOrHash;
    return trie;
  }

  override async flush(): Promise<void> {
    await super.flush();
    let storageRootsMoved = false;
    for (const trie of Object.values(this._storageTries) as BatchedAccountTrie[]) {
      if (!trie.hasWrites || !trie.owner) continue;
      await trie.applyWrites();
      const account = await this.getAccount(trie.owner);
      if (!account) continue;
      account.storageRoot = trie.root();
      await this.putAccount(trie.owner, account);
      storageRootsMoved = true;
    }
    // The accounts just given their storage roots reach the account trie.
    if (storageRootsMoved) await super.flush();
    await (this._trie as BatchedAccountTrie).applyWrites();
  }
}

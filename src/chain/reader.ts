/**
 * Read access to the chain for every actor and the RPC layer. Everything it returns is immutable:
 * blocks, receipts and trie nodes are content-addressed, and the head is a frozen snapshot that
 * the chain writer swaps on each import. So reads run concurrently, without asking the writer.
 */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { Account, Address, DB } from '@ethereumjs/util';
import { decodeBody, decodeReceipts, makeBlock, storedBlockEncoding, type Block, type StoredReceipt } from './codec/block.ts';
import { hex, toBig } from './codec/bytes.ts';
import { stateManagerAt } from './execution/blockRunner.ts';
import { decodeFullHeader, type BlockHeader } from './codec/header.ts';
import type { Network } from './execution/networks.ts';
import { ChainStore } from './storage/store.ts';
import { CommittedTrieDb } from './storage/trieDb.ts';
import { Lru } from './storage/lru.ts';
import type { LogCriteria, LogEntry } from './logs/logFilter.ts';
import { queryLogs } from './logs/logQuery.ts';

export interface HeadInfo {
  readonly hash: Uint8Array;
  readonly number: bigint;
  readonly header: BlockHeader;
  readonly totalDifficulty: bigint;
}

export interface TxLocation {
  readonly blockHash: Uint8Array;
  readonly index: number;
}

/**
 * What the RPC layer and the actors other than the chain's own read the chain through: reads only, no
 * store handle and no mutators (docs/rpc-workers.md, "Owners"). The chain writer holds the
 * ChainReader behind it and publishes heads and caches blocks through it.
 */
export type ChainView = Pick<ChainReader,
  | 'head' | 'getHeader' | 'getBlock' | 'canonicalHash' | 'canonicalBlock' | 'canonicalHashes' | 'rawBlocks' | 'isCanonical'
  | 'getReceipts' | 'totalDifficulty' | 'txLocation' | 'ancestorHeader' | 'stateAt' | 'accountAt' | 'queryLogs' | 'common' | 'network'
> & {
  /** Committed trie nodes, to read state from. */
  readonly trieDb: DB<string, string | Uint8Array>;
};

/** Blocks (and their receipts) the reader keeps decoded. */
const BLOCKS_KEPT = 512;
/** Recent state roots whose accounts the reader keeps (accountAt). */
const STATE_ROOTS_KEPT = 8;

/** A stored block from its decoded header and its body's bytes. */
function blockFrom(header: BlockHeader, body: Uint8Array, common: Common): Block {
  const { txs, uncles } = decodeBody(body, common);
  return makeBlock(header, txs, uncles);
}

export class ChainReader {
  readonly trieDb: CommittedTrieDb;
  #head: HeadInfo | undefined;
  readonly #headers = new Lru<string, BlockHeader>(4096);
  readonly #blocks = new Lru<string, Block>(BLOCKS_KEPT);
  readonly #loading = new Map<string, Promise<Block | undefined>>();
  readonly #receipts = new Lru<string, StoredReceipt[]>(BLOCKS_KEPT);
  readonly #states = new Lru<string, MerkleStateManager>(8);
  /** The head block's transactions by hash, with their index: a receipt asked for right after its block needs no lookup. */
  #headTxs: { readonly block: Uint8Array; readonly index: ReadonlyMap<string, number> } | undefined;
  /** Accounts known under recent state roots: written by their block (rememberRun) or read there (accountAt). */
  readonly #accounts = new Lru<string, Lru<string, Promise<Account | undefined>>>(STATE_ROOTS_KEPT);

  constructor(readonly store: ChainStore, readonly common: Common, readonly network: Network) {
    this.trieDb = new CommittedTrieDb(store.trie);
  }

  /** The current head snapshot. */
  head(): HeadInfo {
    if (!this.#head) throw new Error('chain is not initialised');
    return this.#head;
  }

  /** Only the chain writer calls this, after the head's batch is on disk. */
  publishHead(head: HeadInfo): void {
    this.#head = Object.freeze(head);
    const block = this.#blocks.get(hex(head.hash));
    this.#headTxs = block && { block: block.hash, index: new Map(block.txs.map((tx, i) => [hex(tx.hash()), i])) };
  }

  /** Only the chain writer calls this, after a rewind deleted the block: cached copies go too. */
  forget(blockHash: Uint8Array): void {
    const key = hex(blockHash);
    this.#headers.delete(key);
    this.#blocks.delete(key);
    this.#receipts.delete(key);
  }

  async getHeader(hash: Uint8Array): Promise<BlockHeader | undefined> {
    const key = hex(hash);
    const cached = this.#headers.get(key);
    if (cached) return cached;
    const raw = await this.store.headers.get(hash);
    if (!raw) return undefined;
    const header = decodeFullHeader(raw);
    this.#headers.set(key, header);
    return header;
  }

  async getBlock(hash: Uint8Array): Promise<Block | undefined> {
    const key = hex(hash);
    const cached = this.#blocks.get(key);
    if (cached) return cached;
    // Concurrent misses (a batch of receipts from one block) share one decode.
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = (async () => {
        const [header, body] = await Promise.all([this.getHeader(hash), this.store.bodies.get(hash)]);
        if (!header || !body) return undefined;
        const block = blockFrom(header, body, this.common);
        this.#blocks.set(key, block);
        return block;
      })().finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  /** The chain writer hands over each block it stored, already decoded, and its receipts (both immutable). */
  remember(block: Block, receipts?: StoredReceipt[]): void {
    const key = hex(block.hash);
    this.#blocks.set(key, block);
    this.#headers.set(key, block.header);
    if (receipts) this.#receipts.set(key, receipts);
  }

  async canonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    if (number < 0n || number > this.head().number) return undefined;
    return (await this.store.canon.get(ChainStore.canonKey(number))) ?? undefined;
  }

  async canonicalBlock(number: bigint): Promise<Block | undefined> {
    const hash = await this.canonicalHash(number);
    return hash && this.getBlock(hash);
  }

  /** Canonical hashes from `start`, at most `count`, up to the head. */
  async canonicalHashes(start: bigint, count: number): Promise<Uint8Array[]> {
    const keys: Uint8Array[] = [];
    for (let n = start; n < start + BigInt(count) && n <= this.head().number; n++) keys.push(ChainStore.canonKey(n));
    const hashes = await this.store.canon.getMany(keys);
    const missing = hashes.indexOf(undefined);
    return (missing < 0 ? hashes : hashes.slice(0, missing)) as Uint8Array[];
  }

  /**
   * The canonical blocks `from`…`to` (ascending), from the cache where it has them and otherwise read
   * together (one read per kind of record, not two per block); fewer when the chain has a gap or ends.
   */
  async canonicalBlocks(from: bigint, to: bigint): Promise<Block[]> {
    const cached = this.#cachedHeadBlocks(from, to);
    if (cached) return cached;
    const hashes = await this.canonicalHashes(from, Number(to - from + 1n));
    const blocks = hashes.map((hash) => this.#blocks.get(hex(hash)));
    const missing = hashes.filter((_, i) => !blocks[i]);
    if (missing.length) {
      const [headers, bodies] = await Promise.all([this.store.headers.getMany(missing), this.store.bodies.getMany(missing)]);
      let next = 0;
      for (let i = 0; i < blocks.length; i++) {
        if (blocks[i]) continue;
        const [header, body] = [headers[next], bodies[next++]];
        if (!header || !body) return blocks.slice(0, i) as Block[];
        blocks[i] = blockFrom(decodeFullHeader(header), body, this.common);
      }
    }
    return blocks as Block[];
  }

  /**
   * The blocks `from`…`to` when `to` is the head and the cache holds it and its ancestors down to `from`:
   * the head's ancestors are the canonical chain, so no canonical index is read (an evm_revert's few blocks).
   */
  #cachedHeadBlocks(from: bigint, to: bigint): Block[] | undefined {
    const head = this.head();
    if (to !== head.number || from > to) return undefined;
    const blocks: Block[] = [];
    for (let hash = head.hash, n = to; n >= from; n--) {
      const block = this.#blocks.get(hex(hash));
      if (!block) return undefined;
      blocks.push(block);
      hash = block.header.parentHash;
    }
    return blocks.reverse();
  }

  /** Stored blocks' network encodings (encodeBlock), framed from the stored bytes without decoding them; undefined where unknown. */
  async rawBlocks(hashes: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const [headers, bodies] = await Promise.all([this.store.headers.getMany(hashes), this.store.bodies.getMany(hashes)]);
    return headers.map((header, i) => (header && bodies[i] ? storedBlockEncoding(header, bodies[i]) : undefined));
  }

  async isCanonical(hash: Uint8Array, number: bigint): Promise<boolean> {
    const canon = await this.canonicalHash(number);
    return canon !== undefined && hex(canon) === hex(hash);
  }

  async getReceipts(blockHash: Uint8Array): Promise<StoredReceipt[] | undefined> {
    const key = hex(blockHash);
    const cached = this.#receipts.get(key);
    if (cached) return cached;
    const raw = await this.store.receipts.get(blockHash);
    if (!raw) return undefined;
    const receipts = decodeReceipts(raw);
    this.#receipts.set(key, receipts);
    return receipts;
  }

  async totalDifficulty(hash: Uint8Array): Promise<bigint | undefined> {
    const raw = await this.store.td.get(hash);
    return raw ? toBig(raw) : undefined;
  }

  /** Where a canonical transaction sits, or undefined if it is not on the canonical chain. */
  async txLocation(txHash: Uint8Array): Promise<TxLocation | undefined> {
    const inHead = this.#headTxs?.index.get(hex(txHash));
    if (inHead !== undefined) return { blockHash: this.#headTxs!.block, index: inHead };
    const raw = await this.store.txloc.get(txHash);
    if (!raw) return undefined;
    const [blockHash, index] = RLP.decode(raw) as Uint8Array[];
    return { blockHash: blockHash!, index: Number(toBig(index!)) };
  }

  /** The header at `height` on the chain that ends in `tipHash` (fast when the tip is canonical). */
  async ancestorHeader(tipHash: Uint8Array, height: bigint): Promise<BlockHeader | undefined> {
    let hash = tipHash;
    let header = await this.getHeader(hash);
    while (header && header.number > height) {
      if (await this.isCanonical(hash, header.number)) {
        const canon = await this.canonicalHash(height);
        return canon && this.getHeader(canon);
      }
      hash = header.parentHash;
      header = await this.getHeader(hash);
    }
    return header && header.number === height ? header : undefined;
  }

  /** The logs of canonical blocks `from`…`to` matching `criteria`, from the log index (src/chain/logs/logQuery.ts). */
  queryLogs(criteria: LogCriteria, from: bigint, to: bigint): Promise<LogEntry[]> {
    return queryLogs(this.store, criteria, from, to);
  }

  /**
   * The chain writer hands over a run of stored blocks, oldest first, with their receipts (by hex hash)
   * and the accounts each block's execution wrote, with their values under its state root: the view at
   * that root starts with them, so the first reads at a new head (the pool's check of each sender,
   * balance and nonce polls) walk no trie. Only the newest the caches keep are handed to them: a sync's
   * run of hundreds of blocks would evict the rest at once.
   */
  rememberRun(
    blocks: readonly Block[], receipts: ReadonlyMap<string, StoredReceipt[]>,
    accounts: readonly (readonly [Uint8Array, ReadonlyMap<string, Account | undefined>])[],
  ): void {
    for (const block of blocks.slice(-BLOCKS_KEPT)) this.remember(block, receipts.get(hex(block.hash)));
    for (const [stateRoot, written] of accounts.slice(-STATE_ROOTS_KEPT)) {
      const known = this.#accountsAt(hex(stateRoot));
      for (const [id, account] of written) known.set(id, Promise.resolve(account));
    }
  }

  /**
   * An account under `stateRoot` (undefined: none). One the block at that root wrote (rememberRun)
   * or that was read there before comes from memory without a state view: the pool's check of each
   * sender at a new head builds none (docs/performance.md, "What was cut").
   */
  accountAt(stateRoot: Uint8Array, address: Address): Promise<Account | undefined> {
    const key = hex(stateRoot);
    const accounts = this.#accountsAt(key);
    const id = address.toString();
    return accounts.get(id) ?? this.#readAccount(this.#stateAt(key, stateRoot), accounts, id, address);
  }

  /**
   * A read-only state view at `stateRoot`, shared by concurrent readers (reads only: getAccount,
   * getCode, getStorage, proofs). Executions that write use their own state manager.
   */
  stateAt(stateRoot: Uint8Array): MerkleStateManager {
    return this.#stateAt(hex(stateRoot), stateRoot);
  }

  #stateAt(key: string, stateRoot: Uint8Array): MerkleStateManager {
    let sm = this.#states.get(key);
    if (!sm) {
      sm = stateManagerAt(this.trieDb, stateRoot, this.common);
      // The state at a root never changes: an account read once (balance polls, the pool's checks) is kept.
      const accounts = this.#accountsAt(key);
      const read = sm.getAccount.bind(sm);
      sm.getAccount = (address: Address) => {
        const id = address.toString();
        return accounts.get(id) ?? this.#readAccount({ getAccount: read }, accounts, id, address);
      };
      this.#states.set(key, sm);
    }
    return sm;
  }

  /** The accounts known under a root: those its block wrote, and those read there. */
  #accountsAt(key: string): Lru<string, Promise<Account | undefined>> {
    let accounts = this.#accounts.get(key);
    if (!accounts) this.#accounts.set(key, (accounts = new Lru<string, Promise<Account | undefined>>(4096)));
    return accounts;
  }

  #readAccount(
    sm: Pick<MerkleStateManager, 'getAccount'>, accounts: Lru<string, Promise<Account | undefined>>, id: string, address: Address,
  ): Promise<Account | undefined> {
    const account = sm.getAccount(address);
    accounts.set(id, account);
    account.catch(() => accounts.delete(id)); // a failed read is not remembered
    return account;
  }
}

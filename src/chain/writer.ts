/**
 * The only writer of chain data and state: genesis, block building (execution of a template on
 * the head), block import (validation, execution, fork choice) as one atomic LevelDB batch per
 * block, or per run of consecutive blocks of a sync batch. The checks are in validation.ts,
 * hashForMergedMining and its caches in mergedMiningHash.ts. Owned by the chain actor; nothing
 * else calls it.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, compareBytes, createAddressFromString, equalsBytes } from '@ethereumjs/util';
import { targetFromDifficulty } from '../mergedmining/index.ts';
import { blockWork, encodeBody, encodeReceipts, makeBlock, type Block, type StoredReceipt } from './codec/block.ts';
import { EMPTY, hex, uintBytes, ZERO_HASH } from './codec/bytes.ts';
import { encodeRlp } from './codec/rlp.ts';
import {
  BlockRunner, InvalidBlockError, stateManagerAt, type ExecutionEnv, type ExecutionResult, type StateEdit,
} from './execution/blockRunner.ts';
import { EMPTY_UNCLES_HASH, encodeFullHeader, mergedMiningBaseHash, NO_SEAL, unclesHashOf, type BlockHeader } from './codec/header.ts';
import { ensureLogIndex, indexedMarkerOp, logIndexOps } from './logs/logIndex.ts';
import type { StateStep } from './storage/cacheChanges.ts';
import { Lru } from './storage/lru.ts';
import { MergedMiningHasher } from './mergedMiningHash.ts';
import type { ChainReader, HeadInfo } from './reader.ts';
import { nextDifficulty, nextGasLimit, nextMinimumGasPrice } from './execution/rules.ts';
import { ChainStore, type BatchOp } from './storage/store.ts';
import { OverlayTrieDb } from './storage/trieDb.ts';
import { BlockValidator, MAX_UNCLES } from './validation.ts';
import { orderedTrieRoot } from './storage/trieRoot.ts';

/** Import outcomes, named as the reference node names them (docs/merged-mining.md "Submissions"). */
export type ImportResult = 'IMPORTED_BEST' | 'IMPORTED_NOT_BEST' | 'EXIST' | 'NO_PARENT' | 'INVALID_BLOCK';

export interface HeadChange {
  readonly head: HeadInfo;
  /** Blocks that became canonical, oldest first. */
  readonly added: readonly Block[];
  /** Blocks that left the canonical chain (a reorg), newest first. */
  readonly removed: readonly Block[];
  /** The head was moved back on purpose (evm_revert, evm_reset): the removed blocks are gone, not reorganised. */
  readonly rewound?: boolean;
  /** The trie nodes the added blocks stored, by key: for the RPC workers, which read the new state next (docs/rpc-workers.md, "Heads told ahead"). */
  readonly nodes?: ReadonlyMap<string, Uint8Array>;
  /** The state steps of the added blocks that changed state, oldest first: for the same workers' call VMs. */
  readonly states?: readonly StateStep[];
}

/**
 * Successive head changes (a run's imports, oldest first) as one: blocks that a change removes right
 * after earlier ones added them cancel out. Linear in the blocks: a run of hundreds merges each once.
 */
export function mergeHeadChanges(changes: readonly HeadChange[]): HeadChange | undefined {
  if (changes.length <= 1) return changes[0];
  const added: Block[] = [];
  const removed: Block[] = [];
  const nodes = new Map<string, Uint8Array>();
  const states: StateStep[] = [];
  for (const change of changes) {
    for (const block of change.removed) {
      if (added.length && equalsBytes(added[added.length - 1]!.hash, block.hash)) added.pop();
      else removed.push(block);
    }
    for (const block of change.added) added.push(block);
    for (const [key, node] of change.nodes ?? []) nodes.set(key, node);
    states.push(...(change.states ?? []));
  }
  return { head: changes[changes.length - 1]!.head, added, removed, nodes, states };
}

export interface ImportOutcome {
  readonly result: ImportResult;
  readonly block: Block;
  readonly reason?: string;
  readonly headChange?: HeadChange;
}

/** A block to mine: executed on its parent, waiting for a merged-mining seal. */
export interface Template {
  readonly header: BlockHeader;
  readonly txs: readonly TypedTransaction[];
  readonly uncles: readonly BlockHeader[];
  readonly hashForMergedMining: Uint8Array;
  readonly target: bigint;
  readonly rejected: readonly { tx: TypedTransaction; reason: string }[];
  /** One per transaction: the pending block's logs come from them. */
  readonly receipts: readonly StoredReceipt[];
  /** Trie nodes of the executed state (committed nodes plus this execution's): read `header.stateRoot` through it, never write. */
  readonly stateDb: OverlayTrieDb;
}

export interface BuildRequest {
  readonly coinbase: Uint8Array;
  readonly txs: readonly TypedTransaction[];
  /** Sibling headers the miner has seen; the eligible ones (up to 10) are included as uncles. */
  readonly uncleCandidates?: readonly BlockHeader[];
  readonly timestamp: bigint;
  readonly minimumGasPriceTarget: bigint;
  readonly extraData?: Uint8Array;
  /** Development edits applied before the transactions (regtest developer controls only). */
  readonly stateEdits?: readonly StateEdit[];
}

/** Blocks imported on the head, their batch operations and the head they lead to, not yet written. */
interface PendingBlocks {
  head: HeadInfo;
  readonly ops: BatchOp[];
  /** By number, in order: the canonical blocks the blocks after them see (BLOCKHASH, fork detection). */
  readonly blocks: Map<bigint, Block>;
  /** The accounts each block's execution wrote, by its state root (ExecutionResult.accounts). */
  readonly accounts: [Uint8Array, ReadonlyMap<string, Account | undefined>][];
  /** Each block's receipts, by block hash (hex). */
  readonly receipts: Map<string, StoredReceipt[]>;
}

export class ChainWriter {
  /** Executions of built templates by their merged-mining base hash, reused when the sealed block arrives. */
  readonly #executions = new Lru<string, ExecutionResult>(64);
  readonly #hasher: MergedMiningHasher;
  readonly #validator: BlockValidator;
  /**
   * Blocks imported on the head and not yet written, with the head they lead to: written as one
   * atomic batch when the import or run ends (see flush), so nothing is pending between calls.
   */
  #pending: PendingBlocks | undefined;
  /** The trie nodes of the pending blocks, which the blocks after them execute on. */
  readonly #pendingNodes = new Map<string, Uint8Array>();
  readonly #env: ExecutionEnv;
  readonly #runner: BlockRunner;

  constructor(private readonly reader: ChainReader) {
    this.#env = {
      common: reader.common,
      trieDb: new OverlayTrieDb(reader.trieDb, this.#pendingNodes),
      blockHash: async (n) => this.#pending?.blocks.get(n)?.hash ?? (await reader.canonicalHash(n)) ?? ZERO_HASH,
    };
    this.#runner = new BlockRunner(this.#env);
    this.#hasher = new MergedMiningHasher(reader, {
      tip: () => this.tip(), pendingBlock: (n) => this.#pending?.blocks.get(n), flush: () => this.flush(),
    });
    this.#validator = new BlockValidator(reader, this.#hasher);
  }

  private get store(): ChainStore {
    return this.reader.store;
  }

  /**
   * Opens the head, writing genesis on first start. The head block goes into the reader's cache like every
   * block stored later: a revert to it (a test suite's snapshot at start) then reads nothing from disk.
   */
  async init(): Promise<HeadInfo> {
    const headHash = await this.store.meta.get(ChainStore.HEAD);
    if (headHash) {
      const block = await this.reader.getBlock(headHash);
      const td = await this.reader.totalDifficulty(headHash);
      if (!block || td === undefined) throw new Error('store is corrupt: head block missing');
      const { header } = block;
      const head = { hash: headHash, number: header.number, header, totalDifficulty: td };
      this.reader.publishHead(head);
      await ensureLogIndex(this.reader);
      return head;
    }
    return this.writeGenesis();
  }

  private async writeGenesis(): Promise<HeadInfo> {
    const net = this.reader.network;
    const overlay = new OverlayTrieDb(this.reader.trieDb);
    const sm = stateManagerAt(overlay, undefined, this.reader.common);
    for (const [address, balance] of net.alloc) {
      await sm.putAccount(createAddressFromString(address), new Account(0n, balance));
    }
    const stateRoot = await sm.getStateRoot();
    const header: BlockHeader = Object.freeze({
      parentHash: ZERO_HASH, unclesHash: EMPTY_UNCLES_HASH,
      coinbase: new Uint8Array(20).fill(0x33), stateRoot,
      transactionsRoot: orderedTrieRoot([]), receiptsRoot: orderedTrieRoot([]),
      logsBloom: new Uint8Array(256), difficulty: net.genesisDifficulty, number: 0n, gasLimit: net.genesisGasLimit,
      gasUsed: 0n, timestamp: 0n, extraData: new TextEncoder().encode('horse'), paidFees: 0n, minimumGasPrice: 0n,
      uncleCount: 0, ummRoot: EMPTY,
      parentChainHeader: new Uint8Array([0]), parentChainMerkleProof: new Uint8Array([0]), parentChainCoinbase: new Uint8Array([0]),
    });
    const block = makeBlock(header, []);
    const head = { hash: block.hash, number: 0n, header, totalDifficulty: header.difficulty };
    await this.store.batch([
      ...this.blockOps(block, [], header.difficulty),
      ...overlay.toBatch(this.store.trie),
      { type: 'put', sublevel: this.store.canon, key: ChainStore.canonKey(0n), value: block.hash },
      { type: 'put', sublevel: this.store.meta, key: ChainStore.HEAD, value: block.hash },
      indexedMarkerOp(this.store),
    ]);
    this.reader.remember(block, []);
    this.reader.publishHead(head);
    return head;
  }

  /** hashForMergedMining of a header: base hash with fork-detection data from its ancestry (mergedMiningHash.ts). */
  hashForMergedMining(header: BlockHeader, base?: Uint8Array): Promise<Uint8Array> {
    return this.#hasher.hashForMergedMining(header, base);
  }

  /** Why these uncles may not be included in a block at `number` on `parentHash` (validation.ts), or undefined. */
  unclesProblem(parentHash: Uint8Array, number: bigint, uncles: readonly BlockHeader[]): Promise<string | undefined> {
    return this.#validator.unclesProblem(parentHash, number, uncles);
  }

  /** Executes a new block on the tip (the head, or the last block of a run, see importPending); the result waits in a cache for its seal. */
  async build(req: BuildRequest): Promise<Template> {
    const net = this.reader.network;
    const parent = this.tip();
    const p = parent.header;
    const timestamp = req.timestamp > p.timestamp ? req.timestamp : p.timestamp + 1n;
    const uncles: BlockHeader[] = [];
    for (const candidate of req.uncleCandidates ?? []) {
      if (uncles.length === MAX_UNCLES) break;
      if (!(await this.unclesProblem(parent.hash, p.number + 1n, [...uncles, candidate]))) uncles.push(candidate);
    }
    const ctx = {
      number: p.number + 1n, timestamp, coinbase: req.coinbase, gasLimit: nextGasLimit(net, p.gasLimit),
      difficulty: nextDifficulty(net, p, timestamp, uncles.length), prevRandao: parent.hash,
      minimumGasPrice: nextMinimumGasPrice(p.minimumGasPrice, req.minimumGasPriceTarget), uncles, stateEdits: req.stateEdits,
    };
    const exec = await this.#runner.run(p.stateRoot, ctx, req.txs, 'build');
    const header: BlockHeader = Object.freeze({
      parentHash: parent.hash, unclesHash: unclesHashOf(uncles), coinbase: req.coinbase, stateRoot: exec.stateRoot,
      transactionsRoot: exec.transactionsRoot, receiptsRoot: exec.receiptsRoot, logsBloom: exec.logsBloom,
      difficulty: ctx.difficulty, number: ctx.number, gasLimit: ctx.gasLimit, gasUsed: exec.gasUsed, timestamp,
      extraData: req.extraData ?? EMPTY, paidFees: exec.paidFees, minimumGasPrice: ctx.minimumGasPrice,
      uncleCount: uncles.length, ummRoot: EMPTY, ...NO_SEAL,
    });
    const base = mergedMiningBaseHash(header);
    this.#executions.set(hex(base), exec);
    return Object.freeze({
      header, txs: exec.txs, uncles, hashForMergedMining: await this.hashForMergedMining(header, base),
      target: targetFromDifficulty(header.difficulty), rejected: exec.rejected, receipts: exec.receipts, stateDb: exec.overlay,
    });
  }

  /** Validates, executes (or reuses a template's execution) and stores a block; moves the head if heavier. */
  async import(block: Block): Promise<ImportOutcome> {
    // A child of the tip is new (or a side block a rewind left behind, which is now the heaviest
    // child and is written again): only other blocks are looked up, saving a read per mined block.
    if (!equalsBytes(block.header.parentHash, this.tip().hash) && await this.store.headers.has(block.hash)) return { result: 'EXIST', block };
    try {
      return await this.importNew(block);
    } finally {
      await this.flush();
    }
  }

  /**
   * Imports blocks in order (a sync batch), stopping after the first invalid or orphan one; one
   * lookup finds the known ones. Consecutive blocks on the head are written together in one atomic
   * batch (a crash keeps all of them or none), and the head is published once they are on disk.
   */
  async importRun(blocks: readonly Block[]): Promise<ImportOutcome[]> {
    const known = await this.store.headers.hasMany(blocks.map((b) => b.hash));
    const outcomes: ImportOutcome[] = [];
    try {
      for (const [i, block] of blocks.entries()) {
        const outcome: ImportOutcome = known[i] ? { result: 'EXIST', block } : await this.importNew(block);
        outcomes.push(outcome);
        if (outcome.result === 'INVALID_BLOCK' || outcome.result === 'NO_PARENT') break;
      }
    } finally {
      await this.flush();
    }
    return outcomes;
  }

  /**
   * Imports a block as the next of a run this node mines (hardhat_mine): it stays pending with the blocks
   * before it, which the next build goes on from, until `writePending` writes them in one atomic batch and
   * publishes their head. Any other import or rewind writes them first.
   */
  importPending(block: Block): Promise<ImportOutcome> {
    return this.importNew(block);
  }

  /** Writes the blocks importPending left pending, as one atomic batch, then publishes their head. */
  writePending(): Promise<void> {
    return this.flush();
  }

  /** The head, counting the pending blocks. */
  private tip(): HeadInfo {
    return this.#pending?.head ?? this.reader.head();
  }

  /** Writes the pending blocks in one atomic batch, then publishes their head. */
  private async flush(): Promise<void> {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    pending.ops.push({ type: 'put', sublevel: this.store.meta, key: ChainStore.HEAD, value: pending.head.hash });
    const written = this.store.batch(pending.ops);
    // Cached while LevelDB writes them: a trie node is reached only from a state root, and readers learn the
    // new root once the head is published, after the write (docs/performance.md "What was cut").
    this.reader.trieDb.remember(this.#pendingNodes);
    this.#pendingNodes.clear();
    await written;
    this.reader.rememberRun([...pending.blocks.values()], pending.receipts, pending.accounts);
    this.reader.publishHead(pending.head);
  }

  private async importNew(block: Block): Promise<ImportOutcome> {
    // A block on the head (the usual case, and every block of a sync) needs no parent lookups and
    // is checked against the pending blocks; any other block, or one with uncles (whose checks
    // read its ancestors from disk), goes after a flush.
    const onHead = equalsBytes(block.header.parentHash, this.tip().hash);
    if (!onHead || block.uncles.length) await this.flush();
    const head = this.tip();
    const parent = onHead ? head.header : await this.reader.getHeader(block.header.parentHash);
    const parentTd = onHead ? head.totalDifficulty : await this.reader.totalDifficulty(block.header.parentHash);
    if (!parent || parentTd === undefined) return { result: 'NO_PARENT', block };
    // The key of a built template's execution, and the base of the hash its proof commits to.
    const baseHash = mergedMiningBaseHash(block.header);
    let exec: ExecutionResult;
    try {
      exec = await this.validate(block, parent, baseHash);
    } catch (err) {
      if (err instanceof InvalidBlockError) return { result: 'INVALID_BLOCK', block, reason: err.message };
      throw err;
    }
    const td = parentTd + blockWork(block);
    const ops: BatchOp[] = [...this.blockOps(block, exec.receipts, td), ...exec.overlay.toBatch(this.store.trie)];
    // Fork choice: most total difficulty; on a tie the lower block hash, so every node picks the same head.
    if (td < head.totalDifficulty || (td === head.totalDifficulty && compareBytes(block.hash, head.hash) >= 0)) {
      await this.store.batch(ops);
      this.reader.trieDb.remember(exec.overlay.writes);
      this.reader.remember(block, [...exec.receipts]);
      return { result: 'IMPORTED_NOT_BEST', block };
    }
    const change = onHead ? { added: [block], removed: [] } : await this.canonicalChange(block, head);
    const newHead: HeadInfo = { hash: block.hash, number: block.header.number, header: block.header, totalDifficulty: td };
    // The head pointer goes into the batch when it is written (flush): once for a whole run.
    ops.push(
      ...this.canonOps(change, head),
      ...await logIndexOps(this.store, change, (b) => (b === block ? exec.receipts : this.reader.getReceipts(b.hash))),
    );
    for (const [key, node] of exec.overlay.writes) this.#pendingNodes.set(key, node);
    const pending: PendingBlocks = this.#pending ?? { head, ops: [], blocks: new Map(), accounts: [], receipts: new Map() };
    for (const op of ops) pending.ops.push(op);
    pending.blocks.set(block.header.number, block);
    pending.accounts.push([block.header.stateRoot, exec.accounts]);
    pending.receipts.set(hex(block.hash), [...exec.receipts]);
    pending.head = newHead;
    this.#pending = pending;
    if (change.removed.length) this.#hasher.canonicalReplaced();
    this.#hasher.headExtended(block);
    this.#executions.delete(hex(baseHash));
    // A reorg rewrites canonical entries that the blocks after it read from disk: it is written at once.
    if (!onHead) await this.flush();
    const states = exec.changes ? [{ from: parent.stateRoot, to: block.header.stateRoot, ...exec.changes }] : [];
    return { result: 'IMPORTED_BEST', block, headChange: { head: newHead, ...change, nodes: exec.overlay.writes, states } };
  }

  /** Checks the block (validation.ts) and executes it, or takes its template's execution. */
  private async validate(block: Block, parent: BlockHeader, baseHash: Uint8Array): Promise<ExecutionResult> {
    const h = block.header;
    await this.#validator.checkHeader(block, parent, baseHash);
    const exec = this.#executions.get(hex(baseHash)) ?? await this.#runner.run(parent.stateRoot, {
      number: h.number, timestamp: h.timestamp, coinbase: h.coinbase, gasLimit: h.gasLimit, difficulty: h.difficulty,
      prevRandao: h.parentHash, minimumGasPrice: h.minimumGasPrice, uncles: block.uncles,
    }, block.txs, 'verify');
    this.#validator.checkExecution(block, exec);
    return exec;
  }

  /** Walks both chains back to their common ancestor. */
  private async canonicalChange(block: Block, head: HeadInfo): Promise<{ added: Block[]; removed: Block[] }> {
    const added: Block[] = [block];
    const removed: Block[] = [];
    let newSide = block.header;
    let oldHash = head.hash;
    let oldNumber = head.number;
    // Step the new branch back until it meets the canonical chain.
    while (!(await this.reader.isCanonical(newSide.parentHash, newSide.number - 1n))) {
      const parent = await this.reader.getBlock(newSide.parentHash);
      if (!parent) throw new Error('side branch parent missing');
      added.unshift(parent);
      newSide = parent.header;
    }
    const forkNumber = newSide.number - 1n;
    while (oldNumber > forkNumber) {
      const old = await this.reader.getBlock(oldHash);
      if (!old) throw new Error('canonical block missing');
      removed.push(old);
      oldHash = old.header.parentHash;
      oldNumber--;
    }
    return { added, removed };
  }

  /**
   * Moves the head back to canonical block `number` (evm_revert, evm_reset) in one atomic batch:
   * the head pointer, the canonical and transaction indexes above it, and the blocks themselves,
   * so that no late block built on them can bring them back. Trie nodes stay (content-addressed).
   */
  async rewind(number: bigint): Promise<HeadChange> {
    await this.flush();
    const head = this.reader.head();
    // The new head and the blocks above it, read together (recent ones are in the reader's cache); each
    // removed block's difficulty is taken off the head's total as its import added it.
    const blocks = number < head.number && number >= 0n ? await this.reader.canonicalBlocks(number, head.number) : [];
    const target = blocks[0];
    if (!target || blocks.length !== Number(head.number - number) + 1) throw new Error(`cannot rewind the head from ${head.number} to ${number}`);
    const removed = blocks.slice(1).reverse();
    let td = head.totalDifficulty;
    for (const b of removed) td -= blockWork(b);
    const blockData = [this.store.headers, this.store.bodies, this.store.receipts, this.store.td];
    await this.store.batch([
      ...this.canonOps({ added: [target], removed }, head),
      ...await logIndexOps(this.store, { added: [], removed }, (b) => this.reader.getReceipts(b.hash)),
      ...removed.flatMap((b) => blockData.map((sublevel): BatchOp => ({ type: 'del', sublevel, key: b.hash }))),
      { type: 'put', sublevel: this.store.meta, key: ChainStore.HEAD, value: target.hash },
    ]);
    for (const b of removed) this.reader.forget(b.hash);
    this.#hasher.rewound(head.number, number);
    const newHead: HeadInfo = { hash: target.hash, number, header: target.header, totalDifficulty: td };
    this.reader.publishHead(newHead);
    return { head: newHead, added: [], removed, rewound: true };
  }

  private canonOps(change: { added: readonly Block[]; removed: readonly Block[] }, head: HeadInfo): BatchOp[] {
    const ops: BatchOp[] = [];
    for (const b of change.removed) {
      for (const tx of b.txs) ops.push({ type: 'del', sublevel: this.store.txloc, key: tx.hash() });
    }
    const newTip = change.added[change.added.length - 1]!.header.number;
    for (let n = newTip + 1n; n <= head.number; n++) ops.push({ type: 'del', sublevel: this.store.canon, key: ChainStore.canonKey(n) });
    for (const b of change.added) {
      ops.push({ type: 'put', sublevel: this.store.canon, key: ChainStore.canonKey(b.header.number), value: b.hash });
      b.txs.forEach((tx, i) => ops.push({ type: 'put', sublevel: this.store.txloc, key: tx.hash(), value: encodeRlp([b.hash, uintBytes(i)]) }));
    }
    return ops;
  }

  private blockOps(block: Block, receipts: ExecutionResult['receipts'], td: bigint): BatchOp[] {
    return [
      { type: 'put', sublevel: this.store.headers, key: block.hash, value: encodeFullHeader(block.header) },
      { type: 'put', sublevel: this.store.bodies, key: block.hash, value: encodeBody(block) },
      { type: 'put', sublevel: this.store.receipts, key: block.hash, value: encodeReceipts(receipts) },
      { type: 'put', sublevel: this.store.td, key: block.hash, value: uintBytes(td) },
    ];
  }
}

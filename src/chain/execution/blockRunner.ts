/**
 * Transaction and block execution with @ethereumjs/vm. The rule set is Cancun without a base
 * fee (blocks carry `minimumGasPrice` instead; the execution header has baseFeePerGas 0), so the
 * default output of current solc (PUSH0, MCOPY, TSTORE…) runs. Legacy (EIP-155), EIP-2930 and
 * EIP-1559 transactions are accepted (the last pay their tip: txPrice.ts); fees go to the block's coinbase.
 */
import { createBlock, type Block as EjsBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, equalsBytes, ValueEncoding, type DB } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import { encodeAccountsInOnePass } from '../codec/accountEncoding.ts';
import { keccak256, uintBytes } from '../codec/bytes.ts';
import { encodeRlp } from '../codec/rlp.ts';
import type { BlockChanges } from '../storage/cacheChanges.ts';
import { BatchedTrie, BatchedStateManager } from '../storage/stateTrie.ts';
import { OverlayTrieDb } from '../storage/trieDb.ts';
import { orderedTrieRoot } from '../storage/trieRoot.ts';
import { txBytes, txFromBytes } from '../codec/txEncoding.ts';
import { impersonatedSender } from '../codec/impersonation.ts';
import { runTransaction } from './runTransaction.ts';
import { applyPlainTransfer } from './plainTransfer.ts';
import type { StoredLog, StoredReceipt } from '../codec/block.ts';
import { speedUpInterpreter } from './interpreter/index.ts';
import { effectiveGasPrice } from './txPrice.ts';

/** Transaction types this chain accepts. */
export const SUPPORTED_TX_TYPES = new Set([0, 1, 2]);

// The chain's Common lives apart so that threads which only decode transactions (block sync's
// sender recovery) load none of the VM.

/** `malformed`: the bytes are not a transaction at all; `rejected`: a transaction this chain refuses. */
export class TxDecodeError extends Error {
  constructor(readonly kind: 'malformed' | 'rejected', message: string) {
    super(message);
  }
}

/**
 * Decodes a signed transaction; throws TxDecodeError with a reason a user can act on. Pre-EIP-155
 * legacy transactions (v 27/28) are accepted, as the reference node does.
 */
export function decodeTx(raw: Uint8Array, common: Common): TypedTransaction {
  if (raw.length === 0) throw new TxDecodeError('malformed', 'empty transaction bytes');
  const type = raw[0]! >= 0xc0 ? 0 : raw[0]!;
  if (!SUPPORTED_TX_TYPES.has(type)) {
    throw new TxDecodeError('rejected', `transaction type ${type} is not supported: this chain accepts legacy (0), EIP-2930 (1) and EIP-1559 (2) transactions`);
  }
  let tx: TypedTransaction;
  try {
    tx = txFromBytes(raw, common);
  } catch (err) {
    const msg = (err as Error).message;
    if (/chain ?id/i.test(msg)) throw new TxDecodeError('rejected', `invalid chain id: this chain's id is ${common.chainId()}`);
    if (/signature|high s/i.test(msg)) throw new TxDecodeError('rejected', `invalid transaction signature: ${msg.split('(')[0]!.trim()}`);
    // EIP-3860, in the reference's words (docs/chain.md "Transaction admission").
    if (/initcode size/i.test(msg)) throw new TxDecodeError('rejected', `transaction's init code size is invalid: ${msg.split('(')[0]!.trim()}`);
    throw new TxDecodeError('malformed', msg.split('(')[0]!.trim());
  }
  if (!tx.isSigned()) throw new TxDecodeError('rejected', 'transaction is not signed');
  // Only this node's eth_sendTransaction makes them, for an account it impersonates (docs/rpc-compatibility.md "Account impersonation").
  if (impersonatedSender(tx)) throw new TxDecodeError('rejected', 'invalid transaction signature: s = 1 marks an impersonated transaction, which only a regtest node\'s eth_sendTransaction sends');
  try {
    tx.getSenderPublicKey(); // recovers (and keeps) the sender's key; its address is hashed where it is needed
  } catch {
    throw new TxDecodeError('rejected', 'invalid transaction signature');
  }
  return tx;
}

export interface ExecutionEnv {
  readonly common: Common;
  /** Committed trie nodes (LevelDB). */
  readonly trieDb: DB<string, string | Uint8Array>;
  /** BLOCKHASH lookup for ancestors of the block being executed. */
  blockHash(number: bigint): Promise<Uint8Array>;
}

export interface BlockContext {
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly coinbase: Uint8Array;
  readonly gasLimit: bigint;
  readonly difficulty: bigint;
  /** Bytes returned by PREVRANDAO/DIFFICULTY (the parent hash: unpredictable enough for a dev chain). */
  readonly prevRandao: Uint8Array;
}

/** The uncles a block includes, for their share of its fees. */
export interface UncleReward {
  readonly coinbase: Uint8Array;
  readonly number: bigint;
}

/**
 * A development node's direct change to an account (hardhat_setBalance and the like), applied before a
 * block's transactions. Only the node that builds the block knows of it (docs/rpc-compatibility.md
 * "Developer controls"): such a block carries no transactions, and other nodes cannot verify it.
 */
export interface StateEdit {
  readonly address: Uint8Array;
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  readonly storage?: readonly [slot: Uint8Array, value: Uint8Array];
}

/** What executing a block needs beyond its transactions: the context, the fee floor, the uncles to pay, development edits. */
export type BlockExecutionContext = BlockContext & {
  readonly minimumGasPrice: bigint;
  readonly uncles?: readonly UncleReward[];
  readonly stateEdits?: readonly StateEdit[];
};

export function executionBlock(ctx: BlockContext, common: Common): EjsBlock {
  return createBlock(
    {
      header: {
        number: ctx.number, timestamp: ctx.timestamp, coinbase: ctx.coinbase, gasLimit: ctx.gasLimit,
        difficulty: 0n, mixHash: ctx.prevRandao, baseFeePerGas: 0n, excessBlobGas: 0n, blobGasUsed: 0n,
        parentBeaconBlockRoot: new Uint8Array(32),
      },
    },
    { common, skipConsensusFormatValidation: true },
  );
}

/**
 * A state manager over the trie at `root`. With `caches`, accounts, code and storage are kept in
 * memory and writes reach the trie only when the state root is asked for: a reverted eth_call or a
 * transaction's checkpoint then costs no trie hashing, and the block's accounts and storage slots
 * are written in one batched update per trie (stateTrie.ts). (Trie nodes are cached once for all
 * tries, in CommittedTrieDb.)
 */
export function stateManagerAt(
  db: DB<string, string | Uint8Array>, root: Uint8Array | undefined, common: Common,
  opts: { caches: true },
): BatchedStateManager;
export function stateManagerAt(
  db: DB<string, string | Uint8Array>, root: Uint8Array | undefined, common: Common, opts?: { caches?: boolean },
): MerkleStateManager;
export function stateManagerAt(
  db: DB<string, string | Uint8Array>, root: Uint8Array | undefined, common: Common,
  opts: { caches?: boolean } = {},
): MerkleStateManager {
  const trieOpts = { db, root, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common };
  // With caches, accounts and slots reach the tries all at once when the root is asked for: batched updates.
  if (opts.caches) {
    return new BatchedStateManager({ trie: new BatchedTrie(trieOpts), common, caches: new Caches() });
  }
  return new MerkleStateManager({ trie: new MerklePatriciaTrie(trieOpts), common });
}

export async function createExecutionVM(env: ExecutionEnv, stateManager: MerkleStateManager): Promise<VM> {
  // What every VM of this thread runs with (each keeps the library's results): accounts encoded in one
  // pass, the interpreter changes.
  encodeAccountsInOnePass();
  await speedUpInterpreter();
  return createVM({
    // Every EVM adds a `hardforkChanged` listener, which holds the EVM, its state manager and trie
    // overlay, to the Common it is given: on the shared Common it would outlive the VM (docs/rpc-workers.md, "The tracing leak").
    common: env.common.copy(),
    stateManager,
    blockchain: {
      getBlock: async (n: number) => {
        const hash = await env.blockHash(BigInt(n));
        return { hash: () => hash };
      },
      putBlock: async () => {},
      shallowCopy() { return this; },
    },
  });
}

export interface ExecutionResult {
  readonly txs: readonly TypedTransaction[];
  readonly receipts: readonly StoredReceipt[];
  readonly stateRoot: Uint8Array;
  readonly receiptsRoot: Uint8Array;
  readonly transactionsRoot: Uint8Array;
  readonly logsBloom: Uint8Array;
  readonly gasUsed: bigint;
  readonly paidFees: bigint;
  /** Trie nodes written by this execution, for the import batch. */
  readonly overlay: OverlayTrieDb;
  /** Transactions left out while building, with the reason (build mode only). */
  readonly rejected: readonly { tx: TypedTransaction; reason: string }[];
  /** The accounts the block wrote, by 0x address, with their values under `stateRoot` (undefined: deleted). */
  readonly accounts: ReadonlyMap<string, Account | undefined>;
  /** The state cache entries the block changed, with their values before and after it (undefined: a block that changes no state). */
  readonly changes?: BlockChanges;
}

export class InvalidBlockError extends Error {}

/**
 * Runs `txs` on top of `parentStateRoot`. In 'build' mode a transaction that does not fit or fails
 * validation is left out; in 'verify' mode it makes the block invalid.
 */
export function executeBlock(
  env: ExecutionEnv,
  parentStateRoot: Uint8Array,
  ctx: BlockExecutionContext,
  txs: readonly TypedTransaction[],
  mode: 'build' | 'verify',
): Promise<ExecutionResult> {
  return new BlockRunner(env).run(parentStateRoot, ctx, txs, mode);
}

/**
 * Executes blocks one after the other with one VM, re-rooted at each parent: creating a VM costs
 * more than running a block of transfers. Not for concurrent use (the chain writer runs one block
 * at a time). After a failure the VM is discarded, so no half-open checkpoint can leak.
 */
export class BlockRunner {
  readonly #overlay: OverlayTrieDb;
  #machine: Promise<{ vm: VM; sm: BatchedStateManager }> | undefined;
  /** The last runs on the VM's line of states, oldest first: each one's parent state root and its changes to the caches. */
  #runs: { readonly before: Uint8Array; readonly changes: BlockChanges }[] = [];

  /** `cachedEntriesKept`: the state caches' size (accounts, contracts' storage, code) past which a run empties them first. */
  constructor(private readonly env: ExecutionEnv, private readonly cachedEntriesKept = CACHED_ENTRIES_KEPT) {
    this.#overlay = new OverlayTrieDb(env.trieDb);
  }

  /** Entries the VM's state caches hold (0 before its first run). */
  async cachedEntries(): Promise<number> {
    return this.#machine ? (await this.#machine).sm.cachedEntries() : 0;
  }

  async run(
    parentStateRoot: Uint8Array,
    ctx: BlockExecutionContext,
    txs: readonly TypedTransaction[],
    mode: 'build' | 'verify',
  ): Promise<ExecutionResult> {
    const env = this.env;
    // Without transactions or edits a block changes no state (no subsidy; uncles share the fees,
    // which are none): its state root is its parent's, with no VM to set up or re-root.
    if (txs.length === 0 && !ctx.stateEdits?.length) return unchangedState(parentStateRoot, env);
    this.#overlay.writes.clear();
    this.#machine ??= (async () => {
      const sm = stateManagerAt(this.#overlay, parentStateRoot, env.common, { caches: true });
      return { sm, vm: await createExecutionVM(env, sm) };
    })();
    try {
      const { vm, sm } = await this.#machine;
      // A run on the state the last one ended at (the next block of a sync, a template on the block just
      // mined) keeps the state caches: they hold that state. They hold every account touched since they were
      // last emptied, so past their bound they start over.
      if (sm.cachedEntries() > this.cachedEntriesKept) {
        this.#runs = [];
        await sm.setStateRoot(parentStateRoot);
      } else if (!equalsBytes(await sm.getStateRoot(), parentStateRoot)) await this.#reroot(sm, parentStateRoot);
      const result = await runBlockTxs(env, vm, sm, ctx, txs, mode);
      const changes = sm.takeChanges();
      if (changes) this.#runs.push({ before: parentStateRoot, changes });
      if (this.#runs.length > RUNS_KEPT) this.#runs.shift();
      // The writes leave with the result (a template may be imported later); the runner's overlay is reused.
      return { ...result, overlay: new OverlayTrieDb(env.trieDb, new Map(this.#overlay.writes)), changes };
    } catch (err) {
      this.#machine = undefined;
      this.#runs = [];
      throw err;
    }
  }

  /**
   * Back to the state before one of the last runs (a revert, a template replaced): their changes to
   * the caches are undone, newest first, and the caches keep the rest. Elsewhere they are emptied.
   */
  async #reroot(sm: BatchedStateManager, stateRoot: Uint8Array): Promise<void> {
    const from = this.#runs.findLastIndex((run) => equalsBytes(run.before, stateRoot));
    if (from < 0) {
      this.#runs = [];
      return sm.setStateRoot(stateRoot);
    }
    for (const run of this.#runs.splice(from).reverse()) sm.applyCacheChanges(run.changes.before);
    await sm.setStateRoot(stateRoot, false);
  }
}

/** Runs whose changes to the caches the runner can undo (blocks a revert may go back over with its caches kept). */
const RUNS_KEPT = 64;

/** Cache entries the runner's VM keeps at most between runs: some tens of MB (an account entry and its decoded copy are a few hundred bytes). */
const CACHED_ENTRIES_KEPT = 100_000;

const EMPTY_ROOT = orderedTrieRoot([]);

function unchangedState(stateRoot: Uint8Array, env: ExecutionEnv): ExecutionResult {
  return {
    txs: [], receipts: [], stateRoot, receiptsRoot: EMPTY_ROOT, transactionsRoot: EMPTY_ROOT, logsBloom: new Uint8Array(256),
    gasUsed: 0n, paidFees: 0n, overlay: new OverlayTrieDb(env.trieDb), rejected: [], accounts: new Map(),
  };
}

async function runBlockTxs(
  env: ExecutionEnv,
  vm: VM,
  sm: BatchedStateManager,
  ctx: BlockExecutionContext,
  txs: readonly TypedTransaction[],
  mode: 'build' | 'verify',
): Promise<Omit<ExecutionResult, 'overlay'>> {
  const block = executionBlock(ctx, env.common);
  const included: TypedTransaction[] = [];
  const receipts: StoredReceipt[] = [];
  const rejected: { tx: TypedTransaction; reason: string }[] = [];
  const bloom = new Uint8Array(256);
  let gasUsed = 0n;
  let paidFees = 0n;
  sm.recordWrites();
  // One checkpoint around the block, as runBlock takes: each transaction's own commit then stays in
  // the state caches, and the trie is written (and hashed) once per touched account, at the end.
  await sm.checkpoint();
  for (const edit of ctx.stateEdits ?? []) await applyEdit(sm, edit);
  for (const tx of txs) {
    const price = effectiveGasPrice(tx);
    const problem = tx.gasLimit > ctx.gasLimit - gasUsed
      ? 'transaction does not fit in the block gas limit'
      : price < ctx.minimumGasPrice ? "transaction's gas price lower than block's minimum" : undefined;
    if (problem) {
      if (mode === 'verify') throw new InvalidBlockError(problem);
      rejected.push({ tx, reason: problem });
      continue;
    }
    let run: TxRun;
    const depth = sm.checkpointDepth();
    try {
      run = await runBlockTx(vm, sm, tx, block, gasUsed);
    } catch (err) {
      if (mode === 'verify') throw new InvalidBlockError(`transaction ${included.length}: ${(err as Error).message}`);
      // A transaction left out leaves the state as it found it, also one the library gave up on midway.
      await sm.revertTo(depth);
      rejected.push({ tx, reason: (err as Error).message });
      continue;
    }
    gasUsed += run.gasUsed;
    paidFees += run.gasUsed * price;
    for (let i = 0; i < 256; i++) bloom[i]! |= run.bloom[i]!;
    receipts.push(Object.freeze({
      status: run.status, cumulativeGasUsed: gasUsed, gasUsed: run.gasUsed, logs: run.logs,
      bloom: run.bloom, contractAddress: run.contractAddress, txType: tx.type,
    }));
    included.push(tx);
  }
  if (ctx.uncles?.length) await payUncles(sm, ctx.coinbase, ctx.number, ctx.uncles, paidFees);
  await sm.commit();
  const stateRoot = await sm.getStateRoot();
  const accounts = new Map<string, Account | undefined>();
  for (const [id, address] of sm.takeWritten()) accounts.set(id, await sm.getAccount(address));
  const transactionsRoot = orderedTrieRoot(included.map(txBytes));
  const receiptsRoot = orderedTrieRoot(receipts.map(consensusReceipt));
  return { txs: included, receipts, stateRoot, receiptsRoot, transactionsRoot, logsBloom: bloom, gasUsed, paidFees, rejected, accounts };
}

/** What one transaction of a block did, for its receipt. */
interface TxRun {
  readonly status: 0 | 1;
  readonly gasUsed: bigint;
  readonly logs: StoredLog[];
  readonly bloom: Uint8Array;
  readonly contractAddress?: Uint8Array;
}

/** A plain transfer applied directly (plainTransfer.ts), any other transaction through the library's runTx. */
async function runBlockTx(vm: VM, sm: BatchedStateManager, tx: TypedTransaction, block: EjsBlock, blockGasUsed: bigint): Promise<TxRun> {
  const plainGas = await applyPlainTransfer(vm, sm, tx, block.header.coinbase);
  if (plainGas !== undefined) return { status: 1, gasUsed: plainGas, logs: [], bloom: new Uint8Array(256) };
  const result = await runTransaction(vm, { tx, block, blockGasUsed, skipHardForkValidation: true });
  const r = result.receipt as { status: 0 | 1; logs: StoredLog[]; bitvector: Uint8Array };
  return { status: r.status, gasUsed: result.totalGasSpent, logs: r.logs, bloom: r.bitvector, contractAddress: result.createdAddress?.bytes };
}

/**
 * Shares a block's fees with the miners of the uncles it includes, after the reference's sibling
 * rule (docs/chain.md "Rewards and fees"): 10 % stays with the block's miner as publisher, the rest is split
 * equally among it and the uncles, and an uncle included k blocks late loses k × 5 % of its share
 * (burned). The coinbase received all fees during execution; the shares move from it.
 */
export function uncleShares(paidFees: bigint, blockNumber: bigint, uncles: readonly UncleReward[]): { payments: bigint[]; taken: bigint } {
  const share = (paidFees - paidFees / 10n) / BigInt(uncles.length + 1);
  const payments = uncles.map((u) => (share * (100n - 5n * (blockNumber - u.number - 1n))) / 100n);
  return { payments, taken: share * BigInt(uncles.length) };
}

async function payUncles(sm: MerkleStateManager, coinbase: Uint8Array, blockNumber: bigint, uncles: readonly UncleReward[], paidFees: bigint) {
  const { payments, taken } = uncleShares(paidFees, blockNumber, uncles);
  if (taken === 0n) return;
  const miner = new Address(coinbase);
  const minerAccount = (await sm.getAccount(miner)) ?? new Account();
  // A coinbase that spent the fees it earned earlier in the block keeps them: never go below zero.
  if (minerAccount.balance < taken) return;
  minerAccount.balance -= taken;
  await sm.putAccount(miner, minerAccount);
  for (const [i, u] of uncles.entries()) {
    const address = new Address(u.coinbase);
    const account = (await sm.getAccount(address)) ?? new Account();
    account.balance += payments[i]!;
    await sm.putAccount(address, account);
  }
}

/** The Ethereum consensus receipt encoding (typed envelope for type ≥ 1), the receipts-trie value. */
export function consensusReceipt(r: StoredReceipt): Uint8Array {
  const body = encodeRlp([uintBytes(r.status), uintBytes(r.cumulativeGasUsed), r.bloom, r.logs]);
  if (r.txType === 0) return body;
  const out = new Uint8Array(body.length + 1);
  out[0] = r.txType;
  out.set(body, 1);
  return out;
}

/** A trie keyed by RLP(index), as transactions and receipts tries are (in memory), for proofs; orderedTrieRoot computes only its root. */
export async function orderedTrie(values: readonly Uint8Array[]): Promise<MerklePatriciaTrie> {
  const trie = new MerklePatriciaTrie({ useKeyHashingFunction: keccak256 });
  for (let i = 0; i < values.length; i++) await trie.put(RLP.encode(i), values[i]!);
  return trie;
}

export const addressOf = (bytes: Uint8Array): Address => new Address(bytes);

async function applyEdit(sm: BatchedStateManager, edit: StateEdit): Promise<void> {
  const address = new Address(edit.address);
  const account = (await sm.getAccount(address)) ?? new Account();
  if (edit.balance !== undefined) account.balance = edit.balance;
  if (edit.nonce !== undefined) account.nonce = edit.nonce;
  await sm.putAccount(address, account);
  if (edit.code !== undefined) await sm.putCode(address, edit.code);
  if (edit.storage) await sm.putStorage(address, edit.storage[0], edit.storage[1]);
}

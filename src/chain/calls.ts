/**
 * Read-only execution for eth_call and eth_estimateGas: a small pool of VMs over the committed
 * trie, each call inside a checkpoint that is always reverted, so nothing is ever written.
 */
import type { Common } from '@ethereumjs/common';
import { EVMError, type EVM, type EVMResult } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { Address, bytesToHex, bytesToUnprefixedHex, equalsBytes, type DB } from '@ethereumjs/util';
import type { Block as EjsBlock } from '@ethereumjs/block';
import type { VM } from '@ethereumjs/vm';
import { ZERO_ADDRESS, ZERO_HASH } from './codec/bytes.ts';
import { createExecutionVM, executionBlock } from './execution/blockRunner.ts';
import type { StoredLog } from './codec/block.ts';
import { dataFee } from './codec/txEncoding.ts';
import { callStateManagerAt, type CallStateManager } from './storage/callState.ts';
import type { StateChanges, StateStep } from './storage/cacheChanges.ts';
import { Lru } from './storage/lru.ts';
import { OverlayTrieDb } from './storage/trieDb.ts';
import type { BlockHeader } from './codec/header.ts';
import type { ChainView } from './reader.ts';
import { NodeError } from '../errors.ts';
import { attach, type TraceListeners, type TxTracer } from './execution/tracer.ts';
import { neededGas, unwatch, watch, type GasWatch, type NeededGas } from './execution/interpreter/gasWatch.ts';
import { CallOverBudget, clearDeadline, setDeadline } from './execution/interpreter/callBudget.ts';

export interface CallRequest {
  readonly from?: Uint8Array;
  readonly to?: Uint8Array;
  readonly data?: Uint8Array;
  readonly value?: bigint;
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
  readonly accessList?: readonly [Uint8Array, readonly Uint8Array[]][];
  /** Report the accounts and slots the call touched (eth_createAccessList). */
  readonly reportAccessList?: boolean;
}

/** Touched accounts (unprefixed hex) and their touched slots, as the EVM journal reports them. */
export type TouchedState = ReadonlyMap<string, ReadonlySet<string>>;

export interface CallResult {
  readonly returnValue: Uint8Array;
  /** 'revert' for a REVERT, another EVM error name for other failures, undefined on success. */
  readonly error?: string;
  /** Gas a transaction would be charged (intrinsic + execution, before refunds). */
  readonly gasUsed: bigint;
  /** A success's smallest gas limit (intrinsic included), where its run shows it (interpreter/gasWatch.ts). */
  readonly neededGas?: NeededGas;
  readonly logs: readonly StoredLog[];
  /** With `reportAccessList`: what the call touched, its own access list included. */
  readonly touched?: TouchedState;
  /** Precompile addresses (unprefixed hex), which an access list leaves out. */
  readonly precompiles?: readonly string[];
}

interface PooledVm {
  readonly vm: VM;
  readonly state: CallStateManager;
  root: Uint8Array;
  readonly scratch: OverlayTrieDb;
}

/** Blocks' state steps a CallExecutor keeps (a VM more blocks away from the head starts over). */
const STEPS_KEPT = 16;

/** The steps from state root `from` to `to`, each found by `next` at the root the last one led to; undefined when they do not lead there. */
function stepsBetween(from: Uint8Array, to: Uint8Array, next: (at: Uint8Array) => StateStep | undefined, onward: (step: StateStep) => Uint8Array): StateStep[] | undefined {
  const path: StateStep[] = [];
  for (let at = from; !equalsBytes(at, to); at = onward(path[path.length - 1]!)) {
    const step = next(at);
    if (!step || path.length === STEPS_KEPT) return undefined;
    path.push(step);
  }
  return path;
}

export class CallExecutor {
  readonly #idle: PooledVm[] = [];
  #created = 0;
  readonly #waiters: (() => void)[] = [];
  /** Settles when the VM `prepare` holds is back among the idle ones. */
  #preparing: Promise<void> | undefined;
  /** Execution contexts by header: building one costs more than a simple call. */
  readonly #contexts = new Lru<string, EjsBlock>(32);
  /** The same by header object: the head's header is one object, and building its key cost 2 % of a simple call. */
  readonly #contextsByHeader = new WeakMap<BlockHeader, EjsBlock>();
  /** The chain's rules with the transaction parameters, as a transaction object's own copy has them. */
  readonly #txCommon: Common;
  /** Account and storage values read by the pooled VMs, by trie root and key (see BatchedTrie). */
  readonly #reads = new Lru<string, Uint8Array | null>(4096);
  /** Recent blocks' state steps by the state root they start from and by the one they end at (hex): a VM at either moves across with its caches. */
  readonly #stepsFrom = new Lru<string, StateStep>(STEPS_KEPT);
  readonly #stepsTo = new Lru<string, StateStep>(STEPS_KEPT);
  /**
   * When set (performance.now() time), the calls this executor runs stop there with CallOverBudget
   * (execution/interpreter/callBudget.ts); the VM such a call stopped in is dropped, not pooled again.
   */
  deadline: number | undefined;

  /** `trieDb`: where state is read; a pending block's execution passes its own (committed nodes plus its writes). */
  constructor(
    private readonly reader: ChainView,
    private readonly maxVms = 4,
    private readonly trieDb: DB<string, string | Uint8Array> = reader.trieDb,
  ) {
    this.#txCommon = reader.common.copy();
    this.#txCommon.updateParams(paramsTx);
  }

  private async acquire(): Promise<PooledVm> {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle) return idle;
      // The VM being prepared is the one to take: another one would be made, or moved, from cold.
      if (this.#preparing) {
        await this.#preparing;
        continue;
      }
      if (this.#created < this.maxVms) {
        this.#created++;
        const env = {
          common: this.reader.common, trieDb: this.trieDb,
          blockHash: async (n: bigint) => (await this.reader.canonicalHash(n)) ?? ZERO_HASH,
        };
        // Storage tries write their nodes even inside a reverted checkpoint: they land in a scratch overlay.
        const scratch = new OverlayTrieDb(this.trieDb);
        const state = callStateManagerAt(scratch, this.reader.head().header.stateRoot, this.reader.common, this.#reads);
        return { vm: await createExecutionVM(env, state), state, root: this.reader.head().header.stateRoot, scratch };
      }
      await new Promise<void>((r) => this.#waiters.push(r));
    }
  }

  private release(entry: PooledVm): void {
    entry.scratch.writes.clear();
    this.#idle.push(entry);
    this.#waiters.shift()?.();
  }

  /** Forgets a VM a call was stopped in: its EVM may have stopped between checkpoints of its own. */
  private drop(): void {
    this.#created--;
    this.#waiters.shift()?.();
  }

  private contextOf(header: BlockHeader): EjsBlock {
    const known = this.#contextsByHeader.get(header);
    if (known) return known;
    const key = `${header.number}:${bytesToHex(header.stateRoot)}:${header.timestamp}`;
    let block = this.#contexts.get(key);
    if (!block) {
      block = executionBlock({
        number: header.number, timestamp: header.timestamp, coinbase: header.coinbase, gasLimit: header.gasLimit,
        difficulty: header.difficulty, prevRandao: header.parentHash,
      }, this.reader.common);
      this.#contexts.set(key, block);
    }
    this.#contextsByHeader.set(header, block);
    return block;
  }

  /**
   * Intrinsic gas of a transaction with this data, access list and (when `to` is absent) creation
   * cost, by the Cancun rules @ethereumjs/tx applies; a transaction object would copy the Common,
   * which costs more than a simple call.
   */
  intrinsicGas(req: CallRequest): bigint {
    const param = (name: string) => this.#txCommon.param(name);
    let gas = param('txGas') + dataFee(req.data ?? new Uint8Array(), !req.to, this.#txCommon);
    if (!req.to) gas += param('txCreationGas');
    for (const [, keys] of req.accessList ?? []) gas += param('accessListAddressGas') + BigInt(keys.length) * param('accessListStorageKeyGas');
    return gas;
  }

  /**
   * Moves the VM the next call takes (an idle one: a busy one moves when it is next taken) to the
   * state after `header`, and makes that block's execution context, so a call there starts at once.
   */
  async prepare(header: BlockHeader): Promise<void> {
    this.contextOf(header);
    const entry = this.#idle.pop();
    if (!entry) return;
    this.#preparing = this.moveTo(entry, header).finally(() => {
      this.#preparing = undefined;
      this.release(entry);
    });
    return this.#preparing;
  }

  /** Takes new blocks' state steps (docs/rpc-workers.md, "Heads told ahead"). */
  remember(steps: readonly StateStep[]): void {
    for (const step of steps) {
      this.#stepsFrom.set(bytesToHex(step.from), step);
      this.#stepsTo.set(bytesToHex(step.to), step);
    }
  }

  /**
   * Moves `entry`'s VM to the state after `header`: across the known steps from its state, forward (a new
   * head) or back (a revert), taking their changes into its caches; or else with its caches emptied.
   */
  private async moveTo(entry: PooledVm, header: BlockHeader): Promise<void> {
    if (entry.root === header.stateRoot || equalsBytes(entry.root, header.stateRoot)) return;
    const changes = this.changesBetween(entry.root, header.stateRoot);
    // The root first: if it cannot be set, the caches still hold the state the VM is at.
    await entry.state.setStateRoot(header.stateRoot, !changes);
    for (const change of changes ?? []) entry.state.applyCacheChanges(change);
    entry.root = header.stateRoot;
  }

  /** The changes that take caches at state root `from` to `to`, in order, by the known steps; undefined when they do not lead there. */
  private changesBetween(from: Uint8Array, to: Uint8Array): StateChanges[] | undefined {
    return stepsBetween(from, to, (at) => this.#stepsFrom.get(bytesToHex(at)), (step) => step.to)?.map((step) => step.after)
      ?? stepsBetween(from, to, (at) => this.#stepsTo.get(bytesToHex(at)), (step) => step.from)?.map((step) => step.before);
  }

  /** Runs the call on the state after `header` with `gas` (intrinsic included). */
  async call(header: BlockHeader, req: CallRequest, gas: bigint): Promise<CallResult> {
    const intrinsic = this.intrinsicGas(req);
    if (gas < intrinsic) return { returnValue: new Uint8Array(), error: 'intrinsic gas too low', gasUsed: gas, logs: [] };
    const { result, touched, precompiles, gasWatch } = await this.run(header, req, gas - intrinsic);
    const r = result.execResult;
    const needed = r.exceptionError ? undefined : neededGas(gasWatch, gas - intrinsic, r.executionGasUsed);
    return {
      returnValue: r.returnValue, error: r.exceptionError?.error, gasUsed: intrinsic + r.executionGasUsed, logs: (r.logs ?? []) as StoredLog[],
      ...(needed ? { neededGas: { gas: intrinsic + needed.gas, exact: needed.exact } } : {}),
      ...(touched ? { touched, precompiles } : {}),
    };
  }

  /** The call traced by `tracer` (debug_traceCall); a gas limit below the intrinsic cost is the caller's error. */
  async trace<T>(header: BlockHeader, req: CallRequest, gas: bigint, tracer: TxTracer<T>): Promise<T> {
    const intrinsic = this.intrinsicGas(req);
    if (gas < intrinsic) throw new NodeError('INVALID_PARAMS', `intrinsic gas too low: the call needs ${intrinsic} gas before it runs, its gas is ${gas}`);
    const res = (await this.run(header, req, gas - intrinsic, tracer.listeners)).result;
    // A call has no transaction and so no hash.
    const tx = { to: req.to && new Address(req.to), gasLimit: gas, hash: () => ZERO_HASH };
    return tracer.finish(tx, { execResult: res.execResult, totalGasSpent: intrinsic + res.execResult.executionGasUsed, createdAddress: res.createdAddress });
  }

  /** The EVM's result, and with `reportAccessList` what the call touched. */
  private async run(
    header: BlockHeader, req: CallRequest, executionGas: bigint, listeners?: TraceListeners,
  ): Promise<{ result: EVMResult; gasWatch: GasWatch } & Pick<CallResult, 'touched' | 'precompiles'>> {
    const entry = await this.acquire();
    const { vm } = entry;
    let stopped = false;
    try {
      await this.moveTo(entry, header);
      if (this.deadline !== undefined) setDeadline(vm.evm, this.deadline);
      await vm.stateManager.checkpoint();
      try {
        const caller = new Address(req.from ?? ZERO_ADDRESS);
        warmLikeRunTx(vm, caller, req, header.coinbase);
        if (req.reportAccessList) reportAccessList(vm, req);
        const detach = listeners && attach(vm.evm as EVM, listeners);
        const gasWatch = watch(vm.evm);
        try {
          const result = await vm.evm.runCall({
            caller, origin: caller, to: req.to ? new Address(req.to) : undefined, data: req.data, value: req.value ?? 0n,
            gasLimit: executionGas, gasPrice: req.gasPrice ?? 0n,
            block: this.contextOf(header),
          }).catch((err: unknown) => {
            // A value above the caller's balance is thrown, not returned: it is the call's failure all the same.
            if (err instanceof EVMError) return { execResult: { returnValue: new Uint8Array(), exceptionError: err, executionGasUsed: 0n, logs: [] } };
            throw err;
          });
          const access = req.reportAccessList ? { touched: vm.evm.journal.accessList!, precompiles: [...vm.evm.precompiles.keys()] } : {};
          return { result, gasWatch, ...access };
        } finally {
          unwatch(vm.evm);
          detach?.();
        }
      } finally {
        await vm.stateManager.revert();
        entry.state.keepReadsWithin();
      }
    } catch (err) {
      stopped = err instanceof CallOverBudget;
      throw err;
    } finally {
      clearDeadline(vm.evm);
      if (stopped) this.drop();
      else this.release(entry);
    }
  }
}

/** The precompiles' part of a warm set, by the EVM's table of precompiles (a hardfork change makes a new table). */
const PRECOMPILES_WARM = new WeakMap<ReadonlyMap<string, unknown>, ReadonlyMap<string, Set<string>>>();

/** The warm slots of an address warmed without an access list: none, and none may be added (a request's access list gets sets of its own). */
class NoSlots extends Set<string> {
  override add(): this {
    throw new Error('a slot was added to an address warmed without slots');
  }
}
const NO_SLOTS: Set<string> = new NoSlots();

/**
 * A call's always-warm addresses (the journal's `alwaysWarmJournal`: unprefixed hex address to its warm
 * slots): its own, over the precompiles' part, which it reads through instead of copying. The journal
 * only asks it `has`, `get` and `set`.
 */
class WarmAddresses extends Map<string, Set<string>> {
  constructor(private readonly precompiles: ReadonlyMap<string, Set<string>>) {
    super();
  }

  override has(address: string): boolean {
    return super.has(address) || this.precompiles.has(address);
  }

  override get(address: string): Set<string> | undefined {
    return super.get(address) ?? this.precompiles.get(address);
  }
}

/**
 * The EIP-2929/3651 warm set a transaction starts with, so a call costs what the transaction will, over
 * an empty journal. (The library's `journal.cleanup()` would also delete, in this call's state, the
 * empty accounts the previous call touched: reading each of them again, and making a call depend on
 * the one before it.) The set holds what the journal's `addAlwaysWarmAddress` and `addAlwaysWarmSlot`
 * would write, over the precompiles' part made once: adding the precompiles one by one, each address
 * checked as hex text, then copying them, was 2–4 % of a balanceOf call (docs/rpc-workers.md, "Calls").
 */
function warmLikeRunTx(vm: VM, caller: Address, req: CallRequest, coinbase: Uint8Array): void {
  const journal = vm.evm.journal as unknown as { cleanJournal(): void; alwaysWarmJournal: Map<string, Set<string>>; accessList?: unknown; preimages?: unknown };
  journal.cleanJournal();
  delete journal.accessList;
  delete journal.preimages;
  const precompiles = vm.evm.precompiles;
  let part = PRECOMPILES_WARM.get(precompiles);
  if (!part) PRECOMPILES_WARM.set(precompiles, (part = new Map([...precompiles.keys()].map((a) => [a.startsWith('0x') ? a.slice(2) : a, NO_SLOTS]))));
  const warm = new WarmAddresses(part);
  journal.alwaysWarmJournal = warm;
  const address = (bytes: Uint8Array) => {
    const hex = bytesToUnprefixedHex(bytes);
    if (!warm.has(hex)) warm.set(hex, new Set());
    return hex;
  };
  address(caller.bytes);
  if (req.to) address(req.to);
  address(coinbase);
  for (const [listed, keys] of req.accessList ?? []) {
    const hex = address(listed);
    let slots = warm.get(hex)!;
    if (slots === NO_SLOTS) warm.set(hex, (slots = new Set()));
    for (const key of keys) slots.add(bytesToUnprefixedHex(key));
  }
}

/** Starts the journal's report of touched state; the request's own access list counts as touched, as in runTx. */
function reportAccessList(vm: VM, req: CallRequest): void {
  const journal = vm.evm.journal;
  journal.startReportingAccessList();
  const unprefixed = (b: Uint8Array) => bytesToHex(b).slice(2);
  for (const [address, keys] of req.accessList ?? []) {
    journal.addAlwaysWarmAddress(unprefixed(address), true);
    for (const key of keys) journal.addAlwaysWarmSlot(unprefixed(address), unprefixed(key), true);
  }
}

/**
 * The pool's behavior: admission (rules.ts), one lifecycle machine per transaction, pending vs
 * queued by nonce gaps, replacement, eviction, expiry, and what a new head (or a reorg, or a
 * rewind) means for each transaction (docs/chain.md "Transaction admission"; README "Transaction pool").
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util';
import { UNREF_CLOCK, type Clock } from '../../machines/clock.ts';
import { SnapshotRunner, type MachineRun } from '../../machines/snapshotRun.ts';
import type { Block } from '../../chain/codec/block.ts';
import type { Hex } from '../../chain/codec/bytes.ts';
import type { ChainView, HeadInfo } from '../../chain/reader.ts';
import type { HeadChange } from '../../chain/writer.ts';
import { txBytes, txFromBytes } from '../../chain/codec/txEncoding.ts';
import { isDeepEnough, isTooOld, lifecycleState, transactionMachine, type DropReason, type TxMachineEvent } from '../../machines/transaction.machine.ts';
import type { NodeEvent } from '../events.ts';
import type { ActorRef, Behavior, EventBus } from '../kernel/index.ts';
import { PoolBook } from './book.ts';
import type { TxJournal } from './journal.ts';
import { inclusionOrder } from './order.ts';
import type { PoolTx, TxPoolProtocol } from './protocol.ts';
import { DEFAULT_TXPOOL_OPTIONS, type TxPoolOptions } from './options.ts';
import { admissionProblem, gasPriceOf, TxRefusedError } from './rules.ts';

interface Entry {
  readonly data: PoolTx;
  /** Its lifecycle machine, run as a snapshot the pool keeps (src/machines/snapshotRun.ts). */
  readonly machine: MachineRun<typeof transactionMachine>;
}

interface PoolState {
  /** The head the pool last settled on; accounts are read at its state. */
  head: HeadInfo;
  readonly book: PoolBook<Entry>;
  /** Mined transactions kept until their block is `confirmDepth` deep, so a reorg can return them. */
  readonly included: Map<Hex, Entry>;
  /** No live entry arrived (or returned) before this height: `advance` scans the book only once one may be too old. */
  oldestArrival: bigint;
  /** Admitting the journal's transactions at start: they are not appended to it again. */
  restoring: boolean;
}

export interface TxPoolDeps {
  readonly reader: ChainView;
  readonly bus: EventBus<NodeEvent>;
  readonly self: () => ActorRef<TxPoolProtocol>;
  /** The machines' clock (tests pass a SimulatedClock). */
  readonly clock?: Clock;
  /** Where admitted transactions are kept across restarts; none: the pool lives in memory only. */
  readonly journal?: TxJournal;
}

const stateOf = (e: Entry) => lifecycleState(e.machine.snapshot.value);
/** A transaction just admitted is alone when the pool holds nothing else: automine builds its block at once, and the RPC holds the requests after its answer. */
const holdsOne = (s: PoolState) => s.book.size === 1;
const senderOf = (tx: TypedTransaction) => bytesToHex(tx.getSenderAddress().bytes) as Hex;

export function txPoolBehavior(deps: TxPoolDeps, opts: TxPoolOptions = DEFAULT_TXPOOL_OPTIONS): Behavior<TxPoolProtocol, PoolState> {
  const { reader, bus, journal } = deps;
  const clock = deps.clock ?? UNREF_CLOCK;

  const account = async (s: PoolState, sender: Hex) => {
    const acct = await reader.accountAt(s.head.header.stateRoot, new Address(Buffer.from(sender.slice(2), 'hex')));
    return { nonce: acct?.nonce ?? 0n, balance: acct?.balance ?? 0n, hasCode: acct !== undefined && !equalsBytes(acct.codeHash, KECCAK256_NULL) };
  };

  // The only event a machine schedules itself is its age limit; the pool hears of it in its mailbox.
  const machines = new SnapshotRunner(transactionMachine, clock, (machine, event) => {
    try { deps.self().tell({ type: 'tx.aged', machine, event }); } catch { /* stopping: nothing to tidy */ }
  });
  const newMachine = (s: PoolState, hash: Hex) => machines.start({
    hash, receivedAtBlock: s.head.number, maxAgeBlocks: opts.maxAgeBlocks, maxAgeMs: opts.maxAgeMs, confirmDepth: opts.confirmDepth,
  });

  /** Takes a live entry out of the pool (and the journal), then tells its machine why. */
  function finish(s: PoolState, e: Entry, event: TxMachineEvent) {
    leave(s, e);
    machines.send(e.machine, event);
  }

  /** Takes an entry that was not mined out of the book and the journal, and says so (whoever waits for it stops). */
  function leave(s: PoolState, e: Entry) {
    s.book.remove(e);
    if (s.restoring) return;
    journal?.forget(e.data.hash);
    bus.publish({ type: 'pool.txLeft', hash: e.data.hash });
  }

  /**
   * The miner hears of pool changes that alter its next block outside a head change (which it
   * sees anyway) or its own report of transactions it could not include.
   */
  const removed = (e: Entry, queued?: true) => bus.publish({ type: 'pool.txRemoved', hash: e.data.hash, ...(queued && { queued }) });

  const drop = (s: PoolState, e: Entry, reason: DropReason, detail: string) => finish(s, e, { type: 'tx.dropped', reason, detail });

  /** Drops a live entry and tells whoever builds or waits on blocks; the sender's later nonces then wait as queued. */
  async function discard(s: PoolState, e: Entry, reason: DropReason, detail: string) {
    drop(s, e, reason, detail);
    removed(e);
    announce(s, await settle(s, e.data.sender));
  }

  /**
   * Brings a sender's entries in line with its account nonce: nonces already used are dropped,
   * the contiguous run from the account nonce is pending, the rest is queued. Returns the entries
   * that became pending.
   */
  async function settle(s: PoolState, sender: Hex): Promise<Entry[]> {
    const entries = s.book.ofSender(sender);
    if (entries.length === 0) return [];
    const { nonce } = await account(s, sender);
    const gap = s.book.firstGap(sender, nonce);
    const promoted: Entry[] = [];
    for (const e of entries) {
      if (e.data.nonce < nonce) {
        drop(s, e, 'invalid', `nonce ${e.data.nonce} was used by another transaction on chain`);
        continue;
      }
      const state = stateOf(e);
      if (e.data.nonce < gap && state === 'queued') {
        machines.send(e.machine, { type: 'tx.promoted' });
        promoted.push(e);
      } else if (e.data.nonce >= gap && state === 'pending') {
        machines.send(e.machine, { type: 'tx.demoted' });
        removed(e, true);
      }
    }
    return promoted;
  }

  /** Puts an entry in the book (and the journal), keeping `oldestArrival` a lower bound; resolves once journaled. */
  function enter(s: PoolState, e: Entry): Promise<void> | undefined {
    s.book.add(e);
    const journaled = s.restoring ? undefined : journal?.append(txBytes(e.data.tx));
    const at = e.machine.snapshot.context.receivedAtBlock;
    if (at < s.oldestArrival) s.oldestArrival = at;
    return journaled;
  }

  /** Rewrites the journal when mostly dead (mined, dropped, replaced transactions). */
  const compactJournal = (s: PoolState) => journal?.compact(() => liveBytes(s), s.book.size);
  const liveBytes = (s: PoolState) => [...s.book.entries()].sort((a, b) => (a.data.nonce < b.data.nonce ? -1 : 1)).map((e) => txBytes(e.data.tx));

  /** Admits the journal's transactions again (those no longer valid stay out), then keeps only the admitted ones in it. */
  async function restore(s: PoolState) {
    if (!journal) return;
    s.restoring = true;
    for (const raw of journal.read()) {
      try {
        await admit(s, txFromBytes(raw, reader.common));
      } catch { /* mined, replaced or no longer valid meanwhile */ }
    }
    s.restoring = false;
    journal.rewrite(liveBytes(s));
  }

  const announce = (s: PoolState, entries: readonly Entry[]) => {
    for (const e of entries) if (stateOf(e) === 'pending') bus.publish({ type: 'pool.txAdded', tx: e.data.tx, pending: true, alone: holdsOne(s) });
  };

  async function admit(s: PoolState, tx: TypedTransaction): Promise<{ hash: Hex; pending: boolean; alone: boolean; journaled?: Promise<void> }> {
    const hash = bytesToHex(tx.hash()) as Hex;
    const known = s.book.get(hash);
    if (known) throw new TxRefusedError('known', `${stateOf(known)} transaction with same hash already exists`);
    const sender = senderOf(tx);
    const machine = newMachine(s, hash);
    const acct = await account(s, sender);
    const existing = s.book.at(sender, tx.nonce);
    const gasPrice = gasPriceOf(tx);
    let problem = admissionProblem({
      tx, head: s.head.header, account: acct, replacing: existing?.data.gasPrice, othersCost: s.book.senderCost(sender, tx.nonce),
    }, opts);
    let victim: Entry | undefined;
    if (!problem && !existing && s.book.size >= opts.maxTxs) {
      victim = s.book.cheapestTail();
      if (!victim || victim.data.gasPrice >= gasPrice) {
        problem = { kind: 'poolFull', message: `transaction pool is full (${opts.maxTxs} transactions): a gas price above ${victim?.data.gasPrice ?? 0n} is needed to evict the cheapest` };
      }
    }
    if (problem) {
      machines.send(machine, { type: 'tx.rejected', reason: problem.message });
      throw new TxRefusedError(problem.kind, problem.message);
    }
    if (victim) await discard(s, victim, 'evicted', `evicted by ${hash}: the pool is full and it paid the least`);
    if (existing) {
      finish(s, existing, { type: 'tx.replaced', by: hash });
      removed(existing);
    }
    const entry: Entry = { data: Object.freeze({ tx, hash, sender, nonce: tx.nonce, gasPrice, receivedAtMs: Date.now() }), machine };
    const journaled = enter(s, entry);
    const pending = tx.nonce < s.book.firstGap(sender, acct.nonce);
    machines.send(machine, { type: 'tx.validated', executable: pending });
    const alone = holdsOne(s);
    bus.publish({ type: 'pool.txAdded', tx, pending, alone });
    // Filling a gap can make the nonces after it executable.
    if (pending && s.book.at(sender, tx.nonce + 1n)) announce(s, await settle(s, sender));
    return journaled ? { hash, pending, alone, journaled } : { hash, pending, alone };
  }

  /**
   * The new height expires the live transactions that waited too long and confirms the mined ones
   * deep enough. Only those machines get the event: asking each machine (`can`) per block would
   * cost more than all the rest of a head change, with `confirmDepth` blocks of mined ones kept.
   */
  function advance(s: PoolState, touched: Set<Hex>) {
    const event = { type: 'chain.advanced', number: s.head.number } as const;
    if (event.number - s.oldestArrival > opts.maxAgeBlocks) {
      let oldest = event.number;
      for (const e of [...s.book.entries()]) {
        const { context } = e.machine.snapshot;
        if (isTooOld(context, event.number)) {
          touched.add(e.data.sender);
          finish(s, e, event);
        } else if (context.receivedAtBlock < oldest) {
          oldest = context.receivedAtBlock;
        }
      }
      s.oldestArrival = oldest;
    }
    // Mined transactions enter in block order and a reorg takes out the newest: the deep enough come first.
    for (const [hash, e] of s.included) {
      if (!isDeepEnough(e.machine.snapshot.context, event.number)) break;
      s.included.delete(hash);
      machines.send(e.machine, event);
    }
  }

  /** A rewind (evm_revert, evm_reset) discards the pool: nothing returns, nothing waits. */
  function clear(s: PoolState) {
    for (const e of [...s.book.entries()]) drop(s, e, 'cleared', 'the chain was rewound');
    journal?.clear();
    for (const e of s.included.values()) machines.send(e.machine, { type: 'tx.dropped', reason: 'cleared', detail: 'the chain was rewound' });
    s.included.clear();
  }

  /** Transactions of blocks that left the chain come back, oldest first so each sender's nonces arrive in order. */
  async function returnRetracted(s: PoolState, removed: readonly Block[], touched: Set<Hex>): Promise<Entry[]> {
    const returned: Entry[] = [];
    for (const block of [...removed].reverse()) {
      for (const tx of block.txs) {
        const hash = bytesToHex(tx.hash()) as Hex;
        const mined = s.included.get(hash);
        if (!mined) {
          await admit(s, tx).catch(() => undefined); // no longer valid on the new chain: it stays out
          continue;
        }
        s.included.delete(hash);
        machines.send(mined.machine, { type: 'chain.reorged', number: s.head.number });
        const occupant = s.book.at(mined.data.sender, mined.data.nonce);
        if (occupant) {
          machines.send(mined.machine, { type: 'tx.replaced', by: occupant.data.hash });
          continue;
        }
        enter(s, mined);
        touched.add(mined.data.sender);
        returned.push(mined);
      }
    }
    return returned;
  }

  async function onHeadChanged(s: PoolState, change: HeadChange) {
    s.head = change.head;
    if (change.rewound) return clear(s);
    const touched = new Set<Hex>();
    const returned = await returnRetracted(s, change.removed, touched);
    for (const block of change.added) {
      for (const tx of block.txs) {
        const e = s.book.get(bytesToHex(tx.hash()) as Hex);
        // A sender's account nonce moves only when a block carries its transactions.
        touched.add(e?.data.sender ?? senderOf(tx));
        if (!e) continue;
        s.book.remove(e);
        machines.send(e.machine, { type: 'tx.included', blockHash: bytesToHex(block.hash) as Hex, number: block.header.number });
        s.included.set(e.data.hash, e);
      }
    }
    advance(s, touched);
    const promoted: Entry[] = [];
    for (const sender of touched) promoted.push(...(await settle(s, sender)));
    announce(s, [...returned.filter((e) => s.book.get(e.data.hash) === e), ...promoted]);
  }

  const byState = (s: PoolState, state: 'pending' | 'queued') => [...s.book.entries()].filter((e) => stateOf(e) === state);

  return {
    async init() {
      const head = reader.head();
      const s: PoolState = { head, book: new PoolBook<Entry>(), included: new Map(), oldestArrival: head.number, restoring: false };
      await restore(s);
      return s;
    },
    async onTell(s, msg) {
      switch (msg.type) {
        case 'chain.headChanged':
          // One turn of the event loop first: the requests held for this block (src/rpc/inclusion.ts) are
          // answered before this clean-up, which then runs while the client reads the answer
          // (docs/performance.md, "What was cut"). The mailbox keeps every later message behind it. A
          // rewind's answer waits for this clean-up instead (pool.sync).
          if (!msg.rewound) await new Promise((resolve) => setImmediate(resolve));
          await onHeadChanged(s, msg);
          break;
        case 'tx.dropped':
          for (const hash of msg.hashes) {
            const e = s.book.get(hash);
            if (!e) continue;
            drop(s, e, 'invalid', msg.reason);
            announce(s, await settle(s, e.data.sender));
          }
          break;
        case 'tx.aged': {
          // The entry whose machine set the limit (the same transaction sent again since has a machine of its own).
          const e = s.book.get(msg.machine.snapshot.context.hash);
          if (e?.machine !== msg.machine) break;
          // It may have left the state that set the limit since (mined meanwhile): then the event changes nothing.
          machines.send(e.machine, msg.event);
          if (e.machine.snapshot.status !== 'done') break;
          leave(s, e);
          removed(e);
          announce(s, await settle(s, e.data.sender));
          break;
        }
      }
      compactJournal(s);
      return s;
    },
    onAsk: {
      'tx.submit': async (s, { tx }) => [s, await admit(s, tx)],
      'pool.executable': (s, { maxGas }) => {
        const runs = new Map<Hex, PoolTx[]>();
        for (const e of byState(s, 'pending')) {
          const run = runs.get(e.data.sender) ?? [];
          run.push(e.data);
          runs.set(e.data.sender, run);
        }
        for (const run of runs.values()) run.sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
        return [s, inclusionOrder([...runs.values()], maxGas)];
      },
      'pool.nextNonce': async (s, { sender }) => [s, s.book.firstGap(sender, (await account(s, sender)).nonce)],
      'pool.get': (s, { hash }) => [s, s.book.get(hash)?.data],
      'pool.list': (s) => [s, { pending: byState(s, 'pending').map((e) => e.data), queued: byState(s, 'queued').map((e) => e.data) }],
      'pool.sync': (s) => [s, null],
      'pool.discard': async (s, { hash }) => {
        const e = s.book.get(hash);
        if (!e) return [s, false];
        await discard(s, e, 'discarded', 'dropped on request (hardhat_dropTransaction)');
        // Answered once the journal has it: a kill -9 after the answer does not bring it back.
        await journal?.written();
        compactJournal(s);
        return [s, true];
      },
    },
    onStop(s) {
      for (const e of s.book.entries()) machines.stop(e.machine);
      for (const e of s.included.values()) machines.stop(e.machine);
    },
  };
}

/**
 * The lifecycle of one transaction in the pool (README "Transaction pool"):
 *
 *   received ─ tx.validated ─▶ validated.pending ⇄ validated.queued   (executable, or behind a nonce gap)
 *       └──── tx.rejected ──▶ rejected                                 (with the reason)
 *   validated ─ tx.included ─▶ included ─ chain.reorged ─▶ validated.pending   (its block left the chain)
 *                                   └──── chain.advanced, deep enough ─▶ confirmed
 *   validated ─ tx.replaced ─▶ replaced          (same sender and nonce, enough price bump)
 *   validated ─ tx.dropped / too old ─▶ dropped  (evicted, expired, invalid, cleared, discarded)
 *
 * The txpool actor keeps one run of this machine per transaction (a snapshot, src/machines/snapshotRun.ts),
 * sends it these events, and removes it once its snapshot status is 'done'. The only event a machine
 * schedules itself is expiry after `maxAgeMs` (a named delay, set on the pool's clock, so tests drive it
 * with a SimulatedClock). Entering `validated` again after a reorg restarts the age: the transaction is
 * received anew.
 */
import { assign, setup } from 'xstate';
import type { Hex } from '../chain/codec/bytes.ts';

/** Why a live transaction left the pool without being included ('discarded': hardhat_dropTransaction took it out). */
export type DropReason = 'evicted' | 'expired' | 'invalid' | 'cleared' | 'discarded';

export interface TxMachineInput {
  readonly hash: Hex;
  /** Head number when the transaction arrived. */
  readonly receivedAtBlock: bigint;
  /** Dropped once more than this many blocks arrived since (reference `transaction.outdated.threshold`, 10). */
  readonly maxAgeBlocks: bigint;
  /** Dropped once it waited this long (reference `transaction.outdated.timeout`, 650 s). */
  readonly maxAgeMs: number;
  /** An included transaction is forgotten (confirmed) once its block is this deep; a deeper reorg re-admits it from scratch. */
  readonly confirmDepth: bigint;
}

export interface TxMachineContext extends TxMachineInput {
  /** Set in `rejected` and `dropped`: why. */
  readonly reason?: string;
  readonly dropReason?: DropReason;
  readonly replacedBy?: Hex;
  readonly block?: { readonly hash: Hex; readonly number: bigint };
}

/** The guard of `chain.advanced` in `validated`: more than `maxAgeBlocks` blocks arrived since. */
export const isTooOld = (context: TxMachineContext, head: bigint): boolean => head - context.receivedAtBlock > context.maxAgeBlocks;

/** The guard of `chain.advanced` in `included`: its block is `confirmDepth` deep. */
export const isDeepEnough = (context: TxMachineContext, head: bigint): boolean =>
  context.block !== undefined && head - context.block.number >= context.confirmDepth;

export type TxMachineEvent =
  | { type: 'tx.validated'; executable: boolean }
  | { type: 'tx.rejected'; reason: string }
  | { type: 'tx.promoted' }
  | { type: 'tx.demoted' }
  | { type: 'tx.included'; blockHash: Hex; number: bigint }
  | { type: 'tx.replaced'; by: Hex }
  | { type: 'tx.dropped'; reason: DropReason; detail: string }
  | { type: 'chain.advanced'; number: bigint }
  | { type: 'chain.reorged'; number: bigint };

export const transactionMachine = setup({
  types: {
    context: {} as TxMachineContext,
    input: {} as TxMachineInput,
    events: {} as TxMachineEvent,
  },
  delays: {
    maxAge: ({ context }) => context.maxAgeMs,
  },
  guards: {
    executable: ({ event }) => event.type === 'tx.validated' && event.executable,
    tooOld: ({ context, event }) => event.type === 'chain.advanced' && isTooOld(context, event.number),
    deepEnough: ({ context, event }) => event.type === 'chain.advanced' && isDeepEnough(context, event.number),
  },
  actions: {
    recordRejection: assign({ reason: ({ event }) => (event.type === 'tx.rejected' ? event.reason : undefined) }),
    recordBlock: assign({
      block: ({ event }) => (event.type === 'tx.included' ? { hash: event.blockHash, number: event.number } : undefined),
    }),
    recordReplacement: assign({ replacedBy: ({ event }) => (event.type === 'tx.replaced' ? event.by : undefined) }),
    recordDrop: assign(({ event }) => (event.type === 'tx.dropped' ? { dropReason: event.reason, reason: event.detail } : {})),
    recordExpiry: assign(({ context }) => ({
      dropReason: 'expired' as const,
      reason: `expired: waited more than ${context.maxAgeBlocks} blocks or ${context.maxAgeMs / 1000} s`,
    })),
    returnToPool: assign(({ event }) => ({
      block: undefined,
      receivedAtBlock: event.type === 'chain.reorged' ? event.number : 0n,
    })),
  },
}).createMachine({
  id: 'transaction',
  initial: 'received',
  context: ({ input }) => ({ ...input }),
  states: {
    received: {
      on: {
        'tx.validated': [{ guard: 'executable', target: 'validated.pending' }, { target: 'validated.queued' }],
        'tx.rejected': { target: 'rejected', actions: 'recordRejection' },
      },
    },
    validated: {
      // Always entered through a child target; `initial` only satisfies the compound-state rule.
      initial: 'pending',
      after: { maxAge: { target: 'dropped', actions: 'recordExpiry' } },
      on: {
        'tx.included': { target: 'included', actions: 'recordBlock' },
        'tx.replaced': { target: 'replaced', actions: 'recordReplacement' },
        'tx.dropped': { target: 'dropped', actions: 'recordDrop' },
        'chain.advanced': { guard: 'tooOld', target: 'dropped', actions: 'recordExpiry' },
      },
      states: {
        pending: { on: { 'tx.demoted': 'queued' } },
        queued: { on: { 'tx.promoted': 'pending' } },
      },
    },
    included: {
      on: {
        'chain.reorged': { target: 'validated.pending', actions: 'returnToPool' },
        'chain.advanced': { guard: 'deepEnough', target: 'confirmed' },
        'tx.dropped': { target: 'dropped', actions: 'recordDrop' },
      },
    },
    rejected: { type: 'final' },
    replaced: { type: 'final' },
    dropped: { type: 'final' },
    confirmed: { type: 'final' },
  },
});

/** The state names a pool reports: 'pending' and 'queued' are the two halves of `validated`. */
export type TxLifecycleState = 'received' | 'pending' | 'queued' | 'included' | 'rejected' | 'replaced' | 'dropped' | 'confirmed';

export function lifecycleState(value: unknown): TxLifecycleState {
  if (typeof value === 'string') return value as TxLifecycleState;
  return (value as { validated: 'pending' | 'queued' }).validated;
}

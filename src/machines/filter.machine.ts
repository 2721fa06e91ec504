/**
 * The lifecycle of one polling filter (README "Logs, filters and WebSocket"):
 *
 *   installed ─ filter.changed ─▶ installed      (entries buffered until the next poll)
 *       │  ─── filter.polled / filter.touched ─▶ installed, idle timer restarted (polled also drains)
 *       ├──── no poll for `idleTimeoutMs` ──▶ expired
 *       ├──── filter.uninstall ─────────────▶ uninstalled
 *       └──── more than `maxBuffered` entries waiting ─▶ overflowed (the buffer is dropped)
 *
 * The filter supervisor owns one machine per filter, reads the buffer before it sends
 * `filter.polled`, and removes the machine once its snapshot status is 'done'. The idle timer is a
 * named delay, so tests drive it with a SimulatedClock.
 */
import { assign, setup } from 'xstate';
import type { Hex } from '../chain/codec/bytes.ts';
import type { LiveLog } from '../chain/logs/liveLogs.ts';

export type FilterKind = 'logs' | 'blocks' | 'pendingTransactions';

/** One entry of eth_getFilterChanges before formatting: a log (with `removed`), or a block or transaction hash. */
export type FilterChange = Hex | LiveLog;

export interface FilterInput {
  readonly id: Hex;
  readonly kind: FilterKind;
  /** Removed when not polled for this long (default 5 minutes). */
  readonly idleTimeoutMs: number;
  /** Most entries waiting for a poll; one more ends the filter (overflowed) instead of growing memory. */
  readonly maxBuffered: number;
}

/** Entries waiting for a poll, newest chunk first, so appending never copies what is already there. */
interface Chunks {
  readonly entries: readonly FilterChange[];
  readonly older?: Chunks;
}

export interface FilterContext extends FilterInput {
  readonly buffered?: Chunks;
  readonly count: number;
}

export type FilterEvent =
  | { type: 'filter.changed'; entries: readonly FilterChange[] }
  | { type: 'filter.polled' }
  | { type: 'filter.touched' }
  | { type: 'filter.uninstall' };

/** The waiting entries in arrival order. */
export function bufferedChanges(context: FilterContext): FilterChange[] {
  const chunks: (readonly FilterChange[])[] = [];
  for (let c = context.buffered; c; c = c.older) chunks.push(c.entries);
  return chunks.reverse().flat();
}

export const filterMachine = setup({
  types: {
    context: {} as FilterContext,
    input: {} as FilterInput,
    events: {} as FilterEvent,
  },
  delays: {
    idleTimeout: ({ context }) => context.idleTimeoutMs,
  },
  guards: {
    overflows: ({ context, event }) => event.type === 'filter.changed' && context.count + event.entries.length > context.maxBuffered,
  },
  actions: {
    record: assign(({ context, event }) => (event.type === 'filter.changed' && event.entries.length
      ? { buffered: { entries: event.entries, older: context.buffered }, count: context.count + event.entries.length }
      : {})),
    drain: assign({ buffered: undefined, count: 0 }),
  },
}).createMachine({
  id: 'filter',
  initial: 'installed',
  context: ({ input }) => ({ ...input, count: 0 }),
  states: {
    installed: {
      after: { idleTimeout: 'expired' },
      on: {
        'filter.changed': [
          { guard: 'overflows', target: 'overflowed', actions: 'drain' },
          { actions: 'record' },
        ],
        // Re-entering restarts the idle timer.
        'filter.polled': { target: 'installed', reenter: true, actions: 'drain' },
        'filter.touched': { target: 'installed', reenter: true },
        'filter.uninstall': { target: 'uninstalled', actions: 'drain' },
      },
    },
    expired: { type: 'final', entry: 'drain' },
    uninstalled: { type: 'final' },
    overflowed: { type: 'final' },
  },
});

/** Why a filter that reached a final state is gone, for the "filter not found" error. */
export function endReason(context: FilterContext, state: 'expired' | 'uninstalled' | 'overflowed'): string {
  switch (state) {
    case 'expired': return `it expired: not polled with eth_getFilterChanges for ${context.idleTimeoutMs / 1000} s`;
    case 'uninstalled': return 'it was uninstalled';
    case 'overflowed': return `it was dropped: more than ${context.maxBuffered} changes waited for a poll`;
  }
}

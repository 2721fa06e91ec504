/** Filter supervisor rules: one filter machine per id, fed from live events, read and reset by polls. */
import { createActor, type Actor as MachineActor } from 'xstate';
import { UNREF_CLOCK, type Clock } from '../../machines/clock.ts';
import { hex, type Hex } from '../../chain/codec/bytes.ts';
import { boundsOf, type LiveLogSource } from '../../chain/logs/liveLogs.ts';
import type { LogEntry } from '../../chain/logs/logFilter.ts';
import { Lru } from '../../chain/storage/lru.ts';
import { NodeError } from '../../errors.ts';
import { bufferedChanges, endReason, filterMachine } from '../../machines/filter.machine.ts';
import type { ActorRef, Behavior } from '../kernel/index.ts';
import { randomId, type LiveEvent } from '../liveEvents.ts';
import { DEFAULT_FILTER_OPTIONS, type FilterOptions } from './options.ts';
import type { FilterChange, FilterDefinition, FilterSupervisorProtocol } from './protocol.ts';

/** Ended filters whose reason is remembered for the "filter not found" message. */
export const ENDED_REMEMBERED = 4096;

export interface FilterSupervisorDeps {
  /** The node's one source of new blocks' logs, shared with the WebSocket subscriptions. */
  readonly logs: LiveLogSource;
  readonly self: () => ActorRef<FilterSupervisorProtocol>;
  /** The machines' clock (tests pass a SimulatedClock). */
  readonly clock?: Clock;
}

interface Entry {
  readonly definition: FilterDefinition;
  readonly machine: MachineActor<typeof filterMachine>;
  /** A log filter ending at `pending`: the pending logs its last poll reported, so the next reports only new ones. */
  reportedPending: ReadonlySet<string>;
}

/** A pending log's identity while it stays pending: its transaction and place in the pending block. */
const pendingKey = (log: LogEntry) => `${log.txHash}/${log.logIndex}`;

interface SupervisorState {
  readonly filters: Map<Hex, Entry>;
  /** Why recently ended filters ended, by id. */
  readonly ended: Lru<Hex, string>;
  readonly logs: LiveLogSource;
}

type FinalState = 'expired' | 'uninstalled' | 'overflowed';

const filterNotFound = (id: Hex, why: string) => new NodeError('FILTER_NOT_FOUND', `filter not found: ${id} (${why})`);

export function filterSupervisorBehavior(deps: FilterSupervisorDeps, opts: FilterOptions = DEFAULT_FILTER_OPTIONS): Behavior<FilterSupervisorProtocol, SupervisorState> {
  const clock = deps.clock ?? UNREF_CLOCK;

  function newId(s: SupervisorState): Hex {
    for (;;) {
      const id = randomId();
      if (!s.filters.has(id) && s.ended.get(id) === undefined) return id;
    }
  }

  /** The installed filter with this id, or FILTER_NOT_FOUND saying why it is gone. Reads never tidy up. */
  function installed(s: SupervisorState, id: Hex): Entry {
    const entry = s.filters.get(id);
    if (entry && entry.machine.getSnapshot().status === 'active') return entry;
    if (entry) {
      const snapshot = entry.machine.getSnapshot();
      throw filterNotFound(id, endReason(snapshot.context, snapshot.value as FinalState));
    }
    throw filterNotFound(id, s.ended.get(id) ?? 'it was never installed, or the node restarted since');
  }

  function remove(s: SupervisorState, id: Hex, entry: Entry) {
    const snapshot = entry.machine.getSnapshot();
    s.ended.set(id, endReason(snapshot.context, snapshot.value as FinalState));
    s.filters.delete(id);
    entry.machine.stop();
  }

  const send = (entry: Entry, entries: readonly FilterChange[]) => {
    if (entries.length) entry.machine.send({ type: 'filter.changed', entries });
  };

  async function onLiveEvent(s: SupervisorState, e: LiveEvent): Promise<void> {
    for (const entry of s.filters.values()) {
      if (entry.machine.getSnapshot().status !== 'active') continue;
      const def = entry.definition;
      if (e.type === 'pool.txAdded') {
        if (def.kind === 'pendingTransactions') send(entry, [e.hash]);
      } else if (def.kind === 'blocks') {
        send(entry, e.added.map((b) => hex(b.hash)));
      } else if (def.kind === 'logs') {
        send(entry, await s.logs.changes(e, def.filter.criteria, boundsOf(def.filter.scope)));
      }
    }
  }

  return {
    init: () => ({ filters: new Map(), ended: new Lru(ENDED_REMEMBERED), logs: deps.logs }),
    async onTell(s, msg) {
      if (msg.type === 'filter.ended') {
        const entry = s.filters.get(msg.id);
        if (entry && entry.machine.getSnapshot().status === 'done') remove(s, msg.id, entry);
      } else {
        await onLiveEvent(s, msg);
      }
      return s;
    },
    onAsk: {
      'filter.install': (s, definition) => {
        const id = newId(s);
        const machine = createActor(filterMachine, {
          clock, input: { id, kind: definition.kind, idleTimeoutMs: opts.idleTimeoutMs, maxBuffered: opts.maxBuffered },
        });
        // A filter ends on its own (idle timeout, overflow) outside any handler: the supervisor hears of it in its mailbox.
        machine.subscribe({
          complete: () => {
            try { deps.self().tell({ type: 'filter.ended', id }); } catch { /* stopping: nothing to tidy */ }
          },
        });
        s.filters.set(id, { definition, machine: machine.start(), reportedPending: new Set() });
        return [s, id];
      },
      'filter.changes': (s, { id, pendingLogs }) => {
        const entry = installed(s, id);
        const changes = bufferedChanges(entry.machine.getSnapshot().context);
        entry.machine.send({ type: 'filter.polled' });
        if (!pendingLogs) return [s, changes];
        const fresh = pendingLogs.filter((log) => !entry.reportedPending.has(pendingKey(log)));
        entry.reportedPending = new Set(pendingLogs.map(pendingKey));
        return [s, [...changes, ...fresh.map((log) => ({ log, removed: false }))]];
      },
      'filter.definition': (s, { id }) => {
        const entry = installed(s, id);
        entry.machine.send({ type: 'filter.touched' });
        return [s, entry.definition];
      },
      'filter.uninstall': (s, { id }) => {
        const entry = s.filters.get(id);
        if (!entry || entry.machine.getSnapshot().status !== 'active') return [s, false];
        entry.machine.send({ type: 'filter.uninstall' });
        remove(s, id, entry);
        return [s, true];
      },
    },
    onStop(s) {
      for (const entry of s.filters.values()) entry.machine.stop();
    },
  };
}

import type { ChainView } from '../../chain/reader.ts';
import { spawn, type Actor, type EventBus } from '../kernel/index.ts';
import type { NodeEvent } from '../events.ts';
import { txPoolBehavior } from './behavior.ts';
import { TxJournal } from './journal.ts';
import type { TxPoolProtocol } from './protocol.ts';
import { DEFAULT_TXPOOL_OPTIONS, type TxPoolOptions } from './options.ts';

export type { PoolTx, TxPoolProtocol } from './protocol.ts';
export { DEFAULT_TXPOOL_OPTIONS, type TxPoolOptions } from './options.ts';
export { TxRefusedError } from './rules.ts';

/**
 * With a journal path the pool keeps what it admits there and takes it back at start, also when the
 * actor restarts after a failure; without one it starts empty.
 */
export function spawnTxPool(reader: ChainView, bus: EventBus<NodeEvent>, opts: TxPoolOptions = DEFAULT_TXPOOL_OPTIONS, journalPath?: string): Actor<TxPoolProtocol> {
  let actor: Actor<TxPoolProtocol> | undefined;
  const journal = journalPath === undefined ? undefined : new TxJournal(journalPath);
  actor = spawn('txpool', txPoolBehavior({ reader, bus, self: () => actor!.ref, journal }, opts), {
    mailboxSize: 20_000,
    policy: { kind: 'restart', maxRestarts: 5, withinMs: 60_000, backoffMs: (n) => 100 * 2 ** n },
  });
  const stopPool = actor.stop;
  // The journal outlives a restart of the pool: it closes when the actor stops for good.
  return { ...actor, stop: async () => { await stopPool(); journal?.close(); } };
}

import type { ChainView } from '../../chain/reader.ts';
import { spawn, type Actor, type EventBus } from '../kernel/index.ts';
import type { NodeEvent } from '../events.ts';
import { txPoolBehavior } from './behavior.ts';
import type { TxPoolProtocol } from './protocol.ts';
import { DEFAULT_TXPOOL_OPTIONS, type TxPoolOptions } from './rules.ts';

export type { PoolTx, TxPoolProtocol } from './protocol.ts';
export { DEFAULT_TXPOOL_OPTIONS, TxRefusedError, type TxPoolOptions } from './rules.ts';

/** The pool is rebuilt from nothing on a restart (lost transactions can be resent). */
export function spawnTxPool(reader: ChainView, bus: EventBus<NodeEvent>, opts: TxPoolOptions = DEFAULT_TXPOOL_OPTIONS): Actor<TxPoolProtocol> {
  let actor: Actor<TxPoolProtocol> | undefined;
  actor = spawn('txpool', txPoolBehavior({ reader, bus, self: () => actor!.ref }, opts), {
    mailboxSize: 20_000,
    policy: { kind: 'restart', maxRestarts: 5, withinMs: 60_000, backoffMs: (n) => 100 * 2 ** n },
  });
  return actor;
}

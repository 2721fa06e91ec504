import type { ChainReader } from '../../chain/reader.ts';
import { spawn, type Actor, type EventBus } from '../kernel/index.ts';
import type { NodeEvent } from '../events.ts';
import { txPoolBehavior } from './behavior.ts';
import type { TxPoolProtocol } from './protocol.ts';

export type { PoolTx, TxPoolProtocol } from './protocol.ts';

/** The pool is rebuilt from nothing on a restart (lost transactions can be resent). */
export const spawnTxPool = (reader: ChainReader, bus: EventBus<NodeEvent>): Actor<TxPoolProtocol> =>
  spawn('txpool', txPoolBehavior(reader, bus), {
    mailboxSize: 20_000,
    policy: { kind: 'restart', maxRestarts: 5, withinMs: 60_000, backoffMs: (n) => 100 * 2 ** n },
  });

import type { ChainView } from '../../chain/reader.ts';
import type { ChainProtocol } from '../chain/index.ts';
import { spawn, type Actor, type ActorRef } from '../kernel/index.ts';
import type { TxPoolProtocol } from '../txpool/index.ts';
import { minerBehavior } from './behavior.ts';
import type { MinerOptions } from './options.ts';
import type { MinerProtocol } from './protocol.ts';

export type { MinerProtocol, MiningStatus, SavedClock, SubmitResult, Work } from './protocol.ts';
export type { MinerOptions, MiningMode } from './options.ts';

/** Templates are a cache: after a failure the miner restarts empty and rebuilds work on demand. */
export function spawnMiner(opts: MinerOptions, deps: { reader: ChainView; chain: ActorRef<ChainProtocol>; txpool: ActorRef<TxPoolProtocol> }): Actor<MinerProtocol> {
  let actor: Actor<MinerProtocol> | undefined;
  actor = spawn('miner', minerBehavior(opts, { ...deps, self: () => actor!.ref }), {
    mailboxSize: 10_000,
    policy: { kind: 'restart', maxRestarts: 5, withinMs: 60_000, backoffMs: (n) => 100 * 2 ** n },
  });
  return actor;
}

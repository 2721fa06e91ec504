import { spawn, type Actor } from '../kernel/index.ts';
import { blockSyncBehavior, type BlockSyncDeps } from './behavior.ts';
import type { BlockSyncProtocol } from './protocol.ts';

export type { BlockSyncProtocol, SyncStatus } from './protocol.ts';

/** Candidates and the download are soft state: after a failure the sync restarts empty and peers' next statuses refill it. */
export function spawnBlockSync(deps: Omit<BlockSyncDeps, 'self'>): Actor<BlockSyncProtocol> {
  let actor: Actor<BlockSyncProtocol> | undefined;
  actor = spawn('blockSync', blockSyncBehavior({ ...deps, self: () => actor!.ref }), {
    mailboxSize: 10_000,
    policy: { kind: 'restart', maxRestarts: 5, withinMs: 60_000, backoffMs: (n) => 100 * 2 ** n },
  });
  return actor;
}

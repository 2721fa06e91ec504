import { spawn, type Actor } from '../kernel/index.ts';
import { peerManagerBehavior, type PeerManagerDeps } from './behavior.ts';
import type { PeerManagerOptions } from './options.ts';
import type { PeerManagerProtocol } from './protocol.ts';

export type { PeerManagerProtocol, PeerView, ScoringEntry } from './protocol.ts';
export { ourStatus } from './behavior.ts';
export type { PeerEvent } from './scoring.ts';
export { DEFAULT_PEER_MANAGER_OPTIONS, type PeerManagerOptions } from './options.ts';

/** Reputations are soft state: after a failure the manager restarts with a fresh table. */
export function spawnPeerManager(
  opts: PeerManagerOptions,
  deps: Omit<PeerManagerDeps, 'self'>,
): Actor<PeerManagerProtocol> {
  let actor: Actor<PeerManagerProtocol> | undefined;
  actor = spawn('peerManager', peerManagerBehavior(opts, { ...deps, self: () => actor!.ref }), {
    mailboxSize: 10_000,
    policy: { kind: 'restart', maxRestarts: 3, withinMs: 60_000, backoffMs: (n) => 200 * 2 ** n },
  });
  return actor;
}

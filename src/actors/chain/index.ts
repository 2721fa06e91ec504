import { spawn, type Actor } from '../kernel/index.ts';
import { chainBehavior, type ChainDeps } from './behavior.ts';
import type { ChainProtocol } from './protocol.ts';

export type { BlockOrigin, ChainProtocol } from './protocol.ts';
export type { ChainDeps } from './behavior.ts';

/** Chain data is the node's core: a failure escalates to a clean shutdown rather than a restart. */
export function spawnChain(deps: ChainDeps, onEscalate: (name: string, err: unknown) => void): Actor<ChainProtocol> {
  return spawn('chain', chainBehavior(deps), { policy: { kind: 'escalate' }, onEscalate, mailboxSize: 1_000 });
}

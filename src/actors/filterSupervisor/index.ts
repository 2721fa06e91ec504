import { spawn, type Actor } from '../kernel/index.ts';
import { filterSupervisorBehavior, type FilterSupervisorDeps } from './behavior.ts';
import type { FilterOptions } from './options.ts';
import type { FilterSupervisorProtocol } from './protocol.ts';

export type { FilterChange, FilterDefinition, FilterSupervisorProtocol } from './protocol.ts';
export { DEFAULT_FILTER_OPTIONS, type FilterOptions } from './options.ts';

/** Filters are client state the node may lose: after a failure the supervisor restarts empty ("filter not found"). */
export function spawnFilterSupervisor(opts: FilterOptions, deps: Omit<FilterSupervisorDeps, 'self'>): Actor<FilterSupervisorProtocol> {
  let actor: Actor<FilterSupervisorProtocol> | undefined;
  actor = spawn('filterSupervisor', filterSupervisorBehavior({ ...deps, self: () => actor!.ref }, opts), {
    // Every pending transaction and head change arrives here; a burst of transactions must not crowd out a block.
    mailboxSize: 50_000,
    policy: { kind: 'restart', maxRestarts: 5, withinMs: 60_000, backoffMs: (n) => 100 * 2 ** n },
  });
  return actor;
}

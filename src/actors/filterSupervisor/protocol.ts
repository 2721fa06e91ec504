/**
 * The filter supervisor owns every polling filter (eth_newFilter, eth_newBlockFilter,
 * eth_newPendingTransactionFilter), one filter machine each (src/machines/filter.machine.ts). The
 * RPC layer installs, polls and uninstalls them by asking; it hears of new heads and pending
 * transactions on the bus. A restart loses the filters: their ids then get "filter not found".
 */
import type { Hex } from '../../chain/codec/bytes.ts';
import type { LogEntry } from '../../chain/logs/logFilter.ts';
import type { FilterChange } from '../../machines/filter.machine.ts';
import type { LiveLogFilter } from '../../chain/logs/liveLogs.ts';
import type { LiveEvent } from '../liveEvents.ts';

export type { FilterChange };

export type FilterDefinition =
  | { readonly kind: 'logs'; readonly filter: LiveLogFilter }
  | { readonly kind: 'blocks' }
  | { readonly kind: 'pendingTransactions' };

export type FilterSupervisorProtocol = {
  tell:
    | LiveEvent
    /** A filter machine reached a final state on its own (idle timeout). */
    | { type: 'filter.ended'; id: Hex };
  ask: {
    /** Installs a filter; its id, a QUANTITY. */
    'filter.install': { req: FilterDefinition; res: Hex };
    /**
     * Entries since the previous poll; restarts the idle timer. Throws FILTER_NOT_FOUND. For a log
     * filter ending at `pending`, the caller passes the pending block's matching logs: those the
     * previous poll did not report come last.
     */
    'filter.changes': { req: { id: Hex; pendingLogs?: readonly LogEntry[] }; res: FilterChange[] };
    /** A log filter's definition, for eth_getFilterLogs; restarts the idle timer. Throws FILTER_NOT_FOUND. */
    'filter.definition': { req: { id: Hex }; res: FilterDefinition };
    /** True when it was installed; false when unknown or already gone. */
    'filter.uninstall': { req: { id: Hex }; res: boolean };
  };
};

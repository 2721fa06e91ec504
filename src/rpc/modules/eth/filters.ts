/**
 * Polling filters (README "Logs, filters and WebSocket"): install, poll, read, uninstall. The filter
 * supervisor owns them; an unknown, expired, uninstalled or dropped id is -32000 "filter not found"
 * with the reason, never an empty answer.
 */
import { quantity as toQuantity, type Hex } from '../../../chain/codec/bytes.ts';
import type { FilterChange } from '../../../actors/filterSupervisor/index.ts';
import type { RpcDeps } from '../../deps.ts';
import { invalidParams } from '../../errors.ts';
import { liveLogFilter } from '../../filterParams.ts';
import { logJson } from '../../format.ts';
import { JsonArrayText } from '../../json.ts';
import { method } from '../../method.ts';
import { quantity, type Param } from '../../params.ts';
import { findLogs, isPendingEnd, matchingPendingLogs, type LogSources } from './logs.ts';

/** A filter id: a QUANTITY, normalised (leading zeros dropped) so every spelling names the same filter. */
const filterId: Param<Hex> = (raw, name) => toQuantity(quantity(raw, name));

const changeJson = (c: FilterChange) => (typeof c === 'string' ? JSON.stringify(c) : logJson(c.log, c.removed));

export const ethFilterMethods = (deps: LogSources & Pick<RpcDeps, 'filters'>) => {
  const { filters } = deps;
  return {
    eth_newFilter: method([['filter', liveLogFilter]], ([filter]) => filters.ask('filter.install', { kind: 'logs', filter })),
    eth_newBlockFilter: method([], () => filters.ask('filter.install', { kind: 'blocks' })),
    eth_newPendingTransactionFilter: method([], () => filters.ask('filter.install', { kind: 'pendingTransactions' })),
    eth_getFilterChanges: method([['filterId', filterId]], async ([id]) => {
      const definition = await filters.ask('filter.definition', { id });
      const endsPending = definition.kind === 'logs' && isPendingEnd(definition.filter.scope.to);
      const pendingLogs = endsPending ? await matchingPendingLogs(deps.pending, definition.filter.criteria) : undefined;
      return new JsonArrayText((await filters.ask('filter.changes', { id, pendingLogs })).map(changeJson));
    }),
    eth_getFilterLogs: method([['filterId', filterId]], async ([id]) => {
      const definition = await filters.ask('filter.definition', { id });
      if (definition.kind !== 'logs') {
        const kind = definition.kind === 'blocks' ? 'block' : 'pending transaction';
        throw invalidParams(`invalid argument 0 (filterId): ${id} is a ${kind} filter; eth_getFilterLogs reads log filters (use eth_getFilterChanges)`);
      }
      return new JsonArrayText((await findLogs(deps, definition.filter)).map((log) => logJson(log, false)));
    }),
    eth_uninstallFilter: method([['filterId', filterId]], ([id]) => filters.ask('filter.uninstall', { id })),
  };
};

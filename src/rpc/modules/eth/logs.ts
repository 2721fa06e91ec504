/** eth_getLogs (README "Logs, filters and WebSocket"; limits: README "Limits"). */
import { quantity } from '../../../chain/codec/bytes.ts';
import { blockLogEntries, bloomMayMatch, matchesLog, type LogCriteria, type LogEntry } from '../../../chain/logs/logFilter.ts';
import type { ChainView } from '../../../chain/reader.ts';
import type { PendingBlock } from '../../pending.ts';
import { tagHeight } from '../../../chain/blockTags.ts';
import { invalidParams } from '../../errors.ts';
import type { RangeEnd } from '../../../chain/logs/liveLogs.ts';
import { logQuery, type LogQuery } from '../../filterParams.ts';
import { logJson } from '../../format.ts';
import { JsonArrayText } from '../../json.ts';
import { method } from '../../method.ts';

/** Where logs come from: the stored chain, and the pending block (src/rpc/pending.ts). */
export interface LogSources {
  readonly reader: ChainView;
  readonly pending: { get(): Promise<Pick<PendingBlock, 'logs'>> };
}

/**
 * The logs a query selects, in chain order. A range is read against the head of the moment: tags
 * resolve to it, an end past it is cut to it, and a range starting past it is empty (nothing yet).
 * `pending` is the block after the head (docs/rpc-conformance.md, "Pending logs"): a range ending at it also holds the pending
 * block's logs, last and without position.
 */
export async function findLogs(deps: LogSources, q: LogQuery): Promise<LogEntry[]> {
  const { reader } = deps;
  if (q.scope.kind === 'block') return blockLogs(reader, q.scope.hash, q.criteria);
  const head = reader.head().number;
  const at = (end: RangeEnd) => (end.kind === 'number' ? end.number : end.tag === 'pending' ? head + 1n : tagHeight(end.tag, head));
  const from = at(q.scope.from);
  const to = at(q.scope.to) < head ? at(q.scope.to) : head;
  const withPending = isPendingEnd(q.scope.to) && from <= head + 1n;
  const pending = withPending ? await matchingPendingLogs(deps.pending, q.criteria) : [];
  if (from > head) return pending;
  if (from > to) throw invalidParams(`invalid argument 0 (filter): fromBlock ${quantity(from)} is after toBlock ${quantity(to)} (the head is ${quantity(head)})`);
  const mined = await reader.queryLogs(q.criteria, from, to);
  return pending.length ? [...mined, ...pending] : mined;
}

export const isPendingEnd = (end: RangeEnd) => end.kind === 'tag' && end.tag === 'pending';

/** The pending block's logs that match. */
export async function matchingPendingLogs(pending: LogSources['pending'], criteria: LogCriteria): Promise<LogEntry[]> {
  return (await pending.get()).logs.filter((l) => matchesLog(criteria, l.address, l.topics));
}

/**
 * The logs of one block, canonical or not; the bloom is checked before the receipts are read. A block
 * this node does not have has no logs: an empty array, as for a query that matches nothing (docs/rpc-conformance.md, "Error codes").
 */
async function blockLogs(reader: ChainView, hash: Uint8Array, criteria: LogCriteria): Promise<LogEntry[]> {
  const block = await reader.getBlock(hash);
  if (!block) return [];
  if (!bloomMayMatch(block.header.logsBloom, criteria)) return [];
  const receipts = await reader.getReceipts(hash);
  return blockLogEntries(block, receipts ?? []).filter((l) => matchesLog(criteria, l.address, l.topics));
}

export const ethLogMethods = (deps: LogSources) => ({
  eth_getLogs: method([['filter', logQuery]], async ([q]) => new JsonArrayText((await findLogs(deps, q)).map((log) => logJson(log)))),
});

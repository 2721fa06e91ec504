/** eth_getLogs (spec 4.3 'Logs and filters', limits of part 8). */
import { bytesToHex } from '@ethereumjs/util';
import { quantity } from '../../../chain/bytes.ts';
import { blockLogEntries, bloomMayMatch, matchesLog, type LogCriteria, type LogEntry } from '../../../chain/logFilter.ts';
import type { ChainView } from '../../../chain/reader.ts';
import { NodeError } from '../../../errors.ts';
import { tagHeight } from '../../blocks.ts';
import type { RpcDeps } from '../../deps.ts';
import { invalidParams } from '../../errors.ts';
import { logQuery, type LogQuery, type RangeEnd } from '../../filterParams.ts';
import { logJson } from '../../format.ts';
import { JsonArrayText } from '../../json.ts';
import { method } from '../../method.ts';

/**
 * The logs a query selects, in chain order. A range is read against the head of the moment: tags
 * resolve to it, an end past it is cut to it, and a range starting past it is empty (nothing yet).
 */
export async function findLogs(reader: ChainView, q: LogQuery): Promise<LogEntry[]> {
  if (q.scope.kind === 'block') return blockLogs(reader, q.scope.hash, q.criteria);
  const head = reader.head().number;
  const at = (end: RangeEnd) => (end.kind === 'number' ? end.number : tagHeight(end.tag, head));
  const from = at(q.scope.from);
  const to = at(q.scope.to) < head ? at(q.scope.to) : head;
  if (from > head) return [];
  if (from > to) throw invalidParams(`invalid argument 0 (filter): fromBlock ${quantity(from)} is after toBlock ${quantity(to)} (the head is ${quantity(head)})`);
  return reader.queryLogs(q.criteria, from, to);
}

/** The logs of one block, canonical or not; the bloom is checked before the receipts are read. */
async function blockLogs(reader: ChainView, hash: Uint8Array, criteria: LogCriteria): Promise<LogEntry[]> {
  const block = await reader.getBlock(hash);
  if (!block) throw new NodeError('BLOCK_NOT_FOUND', `Block with hash ${bytesToHex(hash)} not found`);
  if (!bloomMayMatch(block.header.logsBloom, criteria)) return [];
  const receipts = await reader.getReceipts(hash);
  return blockLogEntries(block, receipts ?? []).filter((l) => matchesLog(criteria, l.address, l.topics));
}

export const ethLogMethods = (deps: Pick<RpcDeps, 'reader'>) => ({
  eth_getLogs: method([['filter', logQuery]], async ([q]) => new JsonArrayText((await findLogs(deps.reader, q)).map((log) => logJson(log)))),
});

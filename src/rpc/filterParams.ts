/**
 * The filter object of eth_getLogs, eth_newFilter and eth_subscribe('logs') (README "Logs, filters and WebSocket"): fromBlock
 * and toBlock (default `latest`), address (one or many), topics (by position: null for any, an
 * array for alternatives), blockHash (also spelled `blockhash`; eth_getLogs only, never with a range).
 */
import { hex, type Hex } from '../chain/codec/bytes.ts';
import { MAX_TOPIC_POSITIONS, type LogCriteria } from '../chain/logs/logFilter.ts';
import type { BlockRange, LiveLogFilter, RangeEnd } from '../chain/logs/liveLogs.ts';
import { invalidParams } from './errors.ts';
import { address, blockNumberOrTag, fail, hash32, type Param } from './params.ts';

export interface LogQuery {
  readonly criteria: LogCriteria;
  readonly scope: BlockRange | { readonly kind: 'block'; readonly hash: Uint8Array };
}

const LATEST: RangeEnd = { kind: 'tag', tag: 'latest' };
const OBJECT = 'a filter object {fromBlock, toBlock, address, topics, blockHash}';

const isAbsent = (v: unknown) => v === undefined || v === null;

function addresses(raw: unknown, name: string): Hex[] {
  if (isAbsent(raw)) return [];
  if (typeof raw === 'string') return [hex(address(raw, name))];
  if (!Array.isArray(raw)) return fail(name, 'an address or an array of addresses', raw);
  return raw.map((a, i) => hex(address(a, `${name}[${i}]`)));
}

function topics(raw: unknown, name: string): (Hex[] | null)[] {
  if (isAbsent(raw)) return [];
  if (!Array.isArray(raw)) return fail(name, 'an array of topic positions (each null, a 32-byte topic, or an array of them)', raw);
  if (raw.length > MAX_TOPIC_POSITIONS) {
    throw invalidParams(`invalid argument ${name}: at most ${MAX_TOPIC_POSITIONS} topic positions (a log has at most 4 topics), got ${raw.length}`);
  }
  return raw.map((position, i) => {
    const where = `${name}[${i}]`;
    if (position === null) return null;
    if (typeof position === 'string') return [hex(hash32(position, where))];
    if (!Array.isArray(position)) return fail(where, 'null, a 32-byte topic, or an array of 32-byte topics', position);
    // An empty list, or null among the alternatives, leaves the position open (as other nodes read it).
    if (position.length === 0 || position.includes(null)) return null;
    return position.map((t, j) => hex(hash32(t, `${where}[${j}]`)));
  });
}

/** The filter object of eth_getLogs. */
export const logQuery: Param<LogQuery> = (raw, name) => {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail(name, OBJECT, raw);
  const o = raw as Record<string, unknown>;
  const criteria = { addresses: addresses(o.address, `${name}.address`), topics: topics(o.topics, `${name}.topics`) };
  const camel = o.blockHash;
  const lower = o.blockhash;
  if (!isAbsent(camel) && !isAbsent(lower) && camel !== lower) {
    throw invalidParams(`invalid argument ${name}: blockHash and blockhash are both given and differ`);
  }
  const blockHash = isAbsent(camel) ? lower : camel;
  if (isAbsent(blockHash)) return { criteria, scope: range(o, name) };
  if (!isAbsent(o.fromBlock) || !isAbsent(o.toBlock)) {
    throw invalidParams(`invalid argument ${name}: Cannot specify both blockHash and fromBlock/toBlock (blockHash selects one block)`);
  }
  return { criteria, scope: { kind: 'block', hash: hash32(blockHash, `${name}.blockHash`) } };
};

/** The filter object of eth_newFilter and eth_subscribe('logs'): it follows new blocks, so no blockHash. */
export const liveLogFilter: Param<LiveLogFilter> = (raw, name) => {
  const { criteria, scope } = logQuery(raw, name);
  if (scope.kind === 'block') {
    throw invalidParams(`invalid argument ${name}: blockHash is accepted by eth_getLogs only; a filter follows new blocks (use fromBlock/toBlock)`);
  }
  return { criteria, scope };
};

function range(o: Record<string, unknown>, name: string): BlockRange {
  const end = (key: 'fromBlock' | 'toBlock') => (isAbsent(o[key]) ? LATEST : blockNumberOrTag(o[key], `${name}.${key}`) as RangeEnd);
  const from = end('fromBlock');
  const to = end('toBlock');
  if (from.kind === 'number' && to.kind === 'number' && from.number > to.number) {
    throw invalidParams(`invalid argument ${name}: fromBlock 0x${from.number.toString(16)} is after toBlock 0x${to.number.toString(16)}`);
  }
  return { kind: 'range', from, to };
}


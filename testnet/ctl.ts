/**
 * `npm run testnet:ctl -- <command>`: talks to the control endpoint of a running `npm run testnet`
 * (docs/testnet.md, "Control commands"). Groups are comma-separated node indexes: `partition 0,1 2,3`.
 */
import { parseArgs } from 'node:util';
import type { NodeStatus } from './control.ts';
import type { ConditionsView } from './conditions.ts';
import type { ReorgReport } from './scenarios.ts';

export const DEFAULT_CONTROL_PORT = 4440;

export const USAGE = `Usage: npm run testnet:ctl -- [--url http://127.0.0.1:${DEFAULT_CONTROL_PORT}] [--json] <command>
  status                          every node: index, state, role, RPC URL, head, peers; the conditions
  partition <group> <group> ...   cut the network into groups, e.g. partition 0,1,2 3,4,5 (unnamed nodes form one more group)
  heal                            end the partition (the nodes redial by themselves)
  latency <ms> [<group> ...]      delay traffic between groups (default: the partition groups, else every two nodes); 0 clears
  stop <i> | start <i> | kill <i> SIGTERM, start again on the same data dir and ports, SIGKILL
  reorg <depth> [<losing> <winning>]  make the losing side (default: the first half) drop <depth> blocks`;

export class UsageError extends Error {}

export interface ControlRequest { method: 'GET' | 'POST'; path: string; body?: object }

/** A command line as the control request it stands for. */
export function toRequest(words: readonly string[]): ControlRequest {
  const [command, ...args] = words;
  const groups = (from: number) => args.slice(from).map(group);
  switch (command) {
    case 'status': return { method: 'GET', path: '/status' };
    case 'partition': return { method: 'POST', path: '/partition', body: { groups: groups(0) } };
    case 'heal': return { method: 'POST', path: '/heal' };
    case 'latency': return { method: 'POST', path: '/latency', body: { ms: whole(args[0], 'latency <ms>'), ...(args.length > 1 ? { groups: groups(1) } : {}) } };
    case 'reorg': return { method: 'POST', path: '/reorg', body: { depth: whole(args[0], 'reorg <depth>'), ...(args.length > 1 ? { groups: groups(1) } : {}) } };
    case 'stop': case 'start': case 'kill': return { method: 'POST', path: `/nodes/${whole(args[0], `${command} <node index>`)}/${command}` };
    default: throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  }
}

function whole(word: string | undefined, what: string): number {
  if (!word || !/^\d+$/.test(word)) throw new UsageError(`${what}: expected a whole number, got ${word ?? 'nothing'}`);
  return Number(word);
}

function group(word: string): number[] {
  if (!/^\d+(,\d+)*$/.test(word)) throw new UsageError(`${word} is not a group of node indexes like 0,1,2`);
  return word.split(',').map(Number);
}

/** Sends a command (words as on the command line) to the control endpoint at `url`; rejects with the endpoint's error. */
export async function ctl(url: string, words: readonly string[]): Promise<any> {
  const request = toRequest(words);
  const res = await fetch(new URL(request.path, url), {
    method: request.method, headers: { 'content-type': 'application/json' }, body: request.body && JSON.stringify(request.body),
  });
  const body = await res.json() as any;
  if (!res.ok) throw new ControlError(res.status, body.error);
  return body;
}

export class ControlError extends Error {
  constructor(readonly status: number, message: string) { super(message); }
}

const groupsText = (groups: number[][]) => groups.map((g) => g.join(',')).join(' | ');

export function conditionsText(c: ConditionsView): string {
  return `partition: ${c.partition ? groupsText(c.partition) : 'none'}   latency: ${c.latency ? `${c.latency.ms} ms between ${groupsText(c.latency.groups)}` : 'none'}`;
}

export function statusText(s: { nodes: NodeStatus[] } & ConditionsView): string {
  const rows = [['node', 'state', 'role', 'rpc', 'head', 'peers'], ...s.nodes.map((n) => [
    String(n.index), n.state === 'down' && n.lastExit ? `down (${n.lastExit})` : n.state, n.role, n.rpcUrl ?? '-',
    n.head ? `#${n.head.number} ${n.head.hash.slice(0, 10)}…` : '-', n.peers === null ? '-' : String(n.peers),
  ])];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return [...rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()), conditionsText(s)].join('\n');
}

export function reorgText(r: ReorgReport): string {
  return [
    `losing side ${r.losing.join(',')} mined ${r.dropped.length} blocks after #${r.forkPoint} (log in tx ${r.log.transactionHash}); winning side ${r.winning.join(',')} mined ${r.dropped.length + 1}`,
    `after heal every node took #${r.head.number} ${r.head.hash} in ${r.convergedMs} ms`,
    `reorg depth seen on node ${r.watched}: ${r.depth}; a filter there reported ${r.removedLogs} log(s) with removed: true`,
  ].join('\n');
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { url: { type: 'string', default: `http://127.0.0.1:${DEFAULT_CONTROL_PORT}` }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  });
  if (values.help) { console.log(USAGE); process.exit(0); }
  let body;
  try {
    body = await ctl(values.url!, positionals);
  } catch (err) {
    if (err instanceof UsageError) console.error(`${err.message}\n\n${USAGE}`);
    else if (err instanceof ControlError) console.error(`error: ${err.message}`);
    else console.error(`no testnet control endpoint at ${values.url} (${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}); start one with npm run testnet`);
    process.exit(err instanceof UsageError ? 2 : 1);
  }
  if (values.json) console.log(JSON.stringify(body, null, 2));
  else if (positionals[0] === 'status') console.log(statusText(body));
  else if (positionals[0] === 'reorg') console.log(reorgText(body));
  else if (body.index !== undefined) console.log(`node ${body.index}: ${body.state}${body.pid ? ` (pid ${body.pid})` : ''}`);
  else console.log(conditionsText(body));
}

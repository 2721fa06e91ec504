/**
 * `npx tsx bench/logs.ts` (or `npm run bench:logs`): log queries and filters
 * against Anvil and Hardhat 3, the same chain of logs on each, one node at a time. A measurement,
 * not a test: it exits 0 when a target is missed, non-zero only when a node cannot be set up.
 *
 * The chain: two Logger contracts (test/fixtures/Logger.sol), then 2,000 blocks of one transaction
 * each, alternating between them, each logging four Ping events and one Pong (5 logs). Timed, over
 * HTTP, request sent to body received:
 *   - eth_getLogs over the 2,000 blocks: all logs (10,000), by the Pong topic (2,000), by one
 *     contract's address (5,000), and by a topic nothing has (0);
 *   - eth_getFilterChanges of a filter on both contracts after 100 more blocks (500 logs).
 *
 *   BENCH_LOGS_PEERS=mmnode,anvil,hardhat   which nodes (default all three)
 *   BENCH_LOGS_RUNS=25                      timed runs per query (median and best are reported)
 */
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Interface } from 'ethers';
import { compileFixture } from '../test/helpers/solc.ts';
import { post, rpc } from './load.ts';
import { startPeer } from './peers.ts';
import { CHAIN_ID, GENESIS_BALANCE, SENDER_KEYS, sendAndWait, signLegacy } from './workloads.ts';

type Hex = `0x${string}`;
const NODES = ['mmnode', 'anvil', 'hardhat'] as const;
type NodeName = (typeof NODES)[number];

const RUNS = Number(process.env.BENCH_LOGS_RUNS ?? 25);
const selected = (process.env.BENCH_LOGS_PEERS ?? NODES.join(',')).split(',').map((s) => s.trim()) as NodeName[];
for (const n of selected) if (!NODES.includes(n)) throw new Error(`unknown node ${n} in BENCH_LOGS_PEERS (known: ${NODES.join(', ')})`);
if (!(RUNS >= 1 && RUNS <= 1000)) throw new Error('BENCH_LOGS_RUNS must be between 1 and 1000');

const BLOCKS = 2_000;
const FILTER_BLOCKS = 100;
const FILTER_ROUNDS = 3;
const WARMUPS = 20;

const started = Date.now();
const log = (msg: string) => console.error(`[bench:logs ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);

const { abi, bytecode } = compileFixture('Logger.sol', 'Logger');
const LOGGER = new Interface(abi);
const PONG = LOGGER.getEvent('Pong')!.topicHash as Hex;
const NOTHING = `0x${'11'.repeat(32)}` as Hex;
const KEY = SENDER_KEYS[0]!;
const SENDER = bytesToHex(privateToAddress(KEY)) as Hex;

async function startNode(name: NodeName) {
  return startPeer(name, { chainId: CHAIN_ID, keys: [bytesToHex(KEY)], balanceWei: GENESIS_BALANCE });
}

/** Signs and sends one transaction and waits for its receipt: every transaction gets a block of its own. */
async function transact(url: string, nonce: bigint, to: Hex | undefined, data: string): Promise<any> {
  const receipt = await sendAndWait(url, bytesToHex(signLegacy(KEY, { nonce, gasLimit: 3_000_000n, to, data: data as Hex })) as Hex);
  if (receipt.status !== '0x1') throw new Error(`transaction ${receipt.transactionHash} failed`);
  return receipt;
}

interface Timing { readonly medianMs: number; readonly bestMs: number; readonly results: number }

/** Times one request `runs` times, after untimed warm-ups (steady state, JIT compiled): request sent to response body received. */
async function time(url: string, method: string, params: unknown[], runs: number, warmups = WARMUPS): Promise<Timing> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const samples: number[] = [];
  let results = 0;
  for (let i = 0; i < warmups + runs; i++) {
    const t0 = performance.now();
    const text = await post(url, body);
    const ms = performance.now() - t0;
    const reply = JSON.parse(text);
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    results = reply.result.length;
    if (i >= warmups) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)]!, bestMs: samples[0]!, results };
}

const QUERIES = ['full range', 'topic-filtered', 'address-filtered', 'no match', 'filter changes after 100 blocks'] as const;
type Query = (typeof QUERIES)[number];
const EXPECTED: Record<Query, number> = {
  'full range': BLOCKS * 5, 'topic-filtered': BLOCKS, 'address-filtered': (BLOCKS / 2) * 5, 'no match': 0,
  'filter changes after 100 blocks': FILTER_BLOCKS * 5,
};

async function benchNode(name: NodeName): Promise<{ command: string; timings: Record<Query, Timing>; off: string[] }> {
  log(`${name}: starting`);
  const node = await startNode(name);
  try {
    let nonce = BigInt(await rpc<string>(node.url, 'eth_getTransactionCount', [SENDER, 'latest']));
    const loggers: Hex[] = [];
    for (let i = 0; i < 2; i++) loggers.push((await transact(node.url, nonce++, undefined, bytecode)).contractAddress);
    log(`${name}: ${BLOCKS} blocks of 5 logs`);
    const ping = (i: number) => transact(node.url, nonce++, loggers[i % 2], LOGGER.encodeFunctionData('ping', [4, i]));
    const first = Number((await ping(0)).blockNumber);
    let last = first;
    for (let i = 1; i < BLOCKS; i++) last = Number((await ping(i)).blockNumber);
    if (last - first !== BLOCKS - 1) throw new Error(`${name} did not mine one block per transaction (${first}…${last})`);
    const range = { fromBlock: `0x${first.toString(16)}`, toBlock: `0x${last.toString(16)}` };

    log(`${name}: eth_getLogs, ${RUNS} runs each`);
    const timings = {} as Record<Query, Timing>;
    timings['full range'] = await time(node.url, 'eth_getLogs', [range], RUNS);
    timings['topic-filtered'] = await time(node.url, 'eth_getLogs', [{ ...range, topics: [PONG] }], RUNS);
    timings['address-filtered'] = await time(node.url, 'eth_getLogs', [{ ...range, address: loggers[0] }], RUNS);
    timings['no match'] = await time(node.url, 'eth_getLogs', [{ ...range, topics: [NOTHING] }], RUNS);

    log(`${name}: eth_getFilterChanges after ${FILTER_BLOCKS} blocks, ${FILTER_ROUNDS} rounds`);
    const rounds: Timing[] = [];
    for (let r = 0; r < FILTER_ROUNDS; r++) {
      const id = await rpc<Hex>(node.url, 'eth_newFilter', [{ address: loggers }]);
      for (let i = 0; i < FILTER_BLOCKS; i++) await ping(i);
      rounds.push(await time(node.url, 'eth_getFilterChanges', [id], 1, 0));
    }
    const ms = rounds.map((t) => t.medianMs).sort((a, b) => a - b);
    timings['filter changes after 100 blocks'] = { medianMs: ms[Math.floor(ms.length / 2)]!, bestMs: ms[0]!, results: rounds[0]!.results };
    // mmnode must be exact; what the others return is reported (Hardhat's new filters also hand out the
    // logs of the block latest at install, and Anvil's changes can lag the block just mined).
    const off = QUERIES.filter((q) => timings[q].results !== EXPECTED[q]).map((q) => `${q} returned ${timings[q].results} (expected ${EXPECTED[q]})`);
    if (name === 'mmnode' && off.length) throw new Error(`mmnode: ${off.join('; ')}`);
    return { command: node.command, timings, off };
  } finally {
    await node.stop();
  }
}

// ---- run -----------------------------------------------------------------------------------------
const loadAtStart = loadavg()[0]!;
const results: Partial<Record<NodeName, Awaited<ReturnType<typeof benchNode>>>> = {};
for (const name of selected) {
  try {
    results[name] = await benchNode(name);
  } catch (err) {
    console.error(`\n${name} failed: ${(err as Error).stack ?? err}`);
    process.exit(1);
  }
}

// ---- report --------------------------------------------------------------------------------------
const env = [process.env.BENCH_LOGS_PEERS && `BENCH_LOGS_PEERS=${process.env.BENCH_LOGS_PEERS}`, process.env.BENCH_LOGS_RUNS && `BENCH_LOGS_RUNS=${RUNS}`].filter(Boolean);
console.log(`\n$ ${[...env, 'npx tsx bench/logs.ts'].join(' ')}`);
console.log(`node ${process.version}, ${cpus().length} cores; nodes run one at a time on 127.0.0.1; 1-min load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at the end`);
for (const name of selected) console.log(`  ${name.padEnd(8)} ${results[name]!.command}`);
const fmt = (t: Timing | undefined) => (t ? `${t.medianMs.toFixed(2)} / ${t.bestMs.toFixed(2)}` : '–');
const COLS = [34, 8, 17, 17, 17];
const row = (...cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(COLS[i]!) : c.padStart(COLS[i]!))).join(' '));
const rule = () => console.log('-'.repeat(COLS.reduce((a, b) => a + b + 1, -1)));
console.log(`\nms, median / best of ${RUNS} after ${WARMUPS} warm-ups (filter changes: of ${FILTER_ROUNDS} rounds), request sent to body received`);
rule();
row('', 'results', 'mmnode', 'anvil', 'hardhat 3');
rule();
for (const q of QUERIES) row(q, EXPECTED[q].toLocaleString('en-US'), ...(['mmnode', 'anvil', 'hardhat'] as const).map((n) => fmt(results[n]?.timings[q])));
for (const name of selected) for (const note of results[name]!.off) console.log(`  note: ${name} ${note}`);

console.log('\nTargets (medians from this run)');
rule();
const mm = results.mmnode?.timings;
const anvil = results.anvil?.timings;
for (const q of QUERIES) {
  const ours = mm?.[q].medianMs;
  const theirs = anvil?.[q].medianMs;
  const verdict = ours === undefined || theirs === undefined ? 'n/a ' : ours <= theirs ? 'PASS' : 'MISS';
  console.log(`${verdict}  ${`${q} at or below Anvil`.padEnd(50)} ${fmt(mm?.[q])} vs ${fmt(anvil?.[q])} ms`);
}
const none = mm?.['no match'].medianMs;
console.log(`${none === undefined ? 'n/a ' : none < 1 ? 'PASS' : 'MISS'}  ${'no-match query under 1 ms'.padEnd(50)} ${none?.toFixed(2) ?? '–'} ms`);
console.log(`\nTook ${((Date.now() - started) / 1000).toFixed(0)} s.`);
process.exit(0);

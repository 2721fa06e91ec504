/**
 * `npm run bench:devloop`: what a developer's test suite feels, mmnode against Hardhat 3 and Anvil in
 * the same run. One sender, one transaction at a time: send it, ask for its receipt until there is
 * one, send the next (1,000 per round: value transfers, then ERC-20 transfers, then contract
 * deployments), so every transaction gets a block of its own under automine. Then
 * `eth_getBlockByNumber(latest, true)` at concurrency 32. Then the calls a test suite makes between its
 * sends (ethers estimates the gas of every contract call it sends), each right after a block:
 * `eth_estimateGas` of an ERC-20 transfer or an `eth_call` of balanceOf. Last, tests as a Hardhat suite's
 * `loadFixture` runs them: evm_snapshot, three ERC-20 transfers and a call, evm_revert. Then the round's mix at half
 * its counts with eth_sendRawTransactionSync (EIP-7966: the receipt in the send's answer), where served. Before all that, a second
 * after each peer started: its first eth_estimateGas and eth_call, as a test run's first calls. A measurement, not a test:
 * exits 0 when a target is missed, non-zero only when a peer cannot be set up.
 *
 *   BENCH_DEVLOOP_PEERS=mmnode,hardhat,anvil   which peers (default all three)
 *   BENCH_DEVLOOP_ROUNDS=3                     rounds per peer, taken in turn (the median round is reported)
 *   BENCH_SECONDS=5                            seconds of the block read load (at most 20)
 */
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runLoad, rpc, type LoadResult } from './load.ts';
import { cpuWindow, type CpuShare } from './cpu.ts';
import { NODE_BIN, startPeer, type Peer, type PeerName } from './peers.ts';
import {
  balanceOfData, CHAIN_ID, GENESIS_BALANCE, RECIPIENTS, SENDER_KEYS, sendAndWait, setupPeer, signLegacy, tokenDeployData, transferData, type Hex, type TxFields,
} from './workloads.ts';

const NAMES = ['mmnode', 'hardhat', 'anvil'] as const satisfies readonly PeerName[];
type Name = (typeof NAMES)[number];
const selected = (process.env.BENCH_DEVLOOP_PEERS ?? NAMES.join(',')).split(',').map((s) => s.trim()) as Name[];
for (const n of selected) if (!NAMES.includes(n)) throw new Error(`unknown peer ${n} in BENCH_DEVLOOP_PEERS (known: ${NAMES.join(', ')})`);
const ROUNDS = Number(process.env.BENCH_DEVLOOP_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
if (!(ROUNDS >= 1 && ROUNDS <= 9)) throw new Error('BENCH_DEVLOOP_ROUNDS must be between 1 and 9');
if (!(SECONDS > 0 && SECONDS <= 20)) throw new Error('BENCH_SECONDS must be more than 0 and at most 20');

/** One round: 1,000 transactions in this order. */
const PHASES = [
  { key: 'value', label: 'value transfers', count: 400 },
  { key: 'erc20', label: 'ERC-20 transfers', count: 400 },
  { key: 'deploy', label: 'contract deployments', count: 200 },
] as const;
type PhaseKey = (typeof PHASES)[number]['key'];
/** Value transfers after which a call is timed (half of them an estimate, half an eth_call). */
const AFTER_BLOCK = 300;
/** Before them, uncounted: the first calls compile mmnode's call path in its RPC worker. */
const AFTER_BLOCK_WARMUP = 20;
/** Fixture-style tests (a snapshot, three ERC-20 transfers and a call, a revert), after as many uncounted. */
const FIXTURE_TESTS = 100;
/** Uncounted transactions before the rounds (each peer's write path compiles on its first ones). */
const WARMUP = 200;
/** Uncounted sync sends before the timed ones. */
const SYNC_WARMUP = 50;
const CONCURRENCY = 32;

/** Dev account 1 sends the loop (account 0 funds and deploys the token in setup). */
const KEY = SENDER_KEYS[1]!;
const SENDER = bytesToHex(privateToAddress(KEY));

const started = Date.now();
const loadAtStart = loadavg()[0]!;
const log = (msg: string) => console.error(`[bench:devloop ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);

interface Latencies { readonly p50Ms: number; readonly p99Ms: number; readonly perSecond: number }
interface PhaseResult extends Latencies {
  /** CPU per transaction: the peer's threads and this process (the client signs and sends). */
  readonly cpu: CpuShare;
}
interface RoundResult {
  readonly phases: Record<PhaseKey, PhaseResult>;
  readonly perSecond: number;
  readonly blocksPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpu: CpuShare;
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const stats = (latencies: readonly number[], seconds: number): Latencies => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), perSecond: latencies.length / seconds };
};

interface Loop {
  readonly name: Name;
  readonly peer: Peer;
  readonly token: Hex;
  nonce: bigint;
  readonly rounds: RoundResult[];
  afterBlock?: { readonly estimate: Latencies; readonly call: Latencies };
  fixtures?: { readonly test: Latencies; readonly snapshot: Latencies; readonly revert: Latencies };
  /** The same mix sent with eth_sendRawTransactionSync (EIP-7966), one request each; null where the peer does not serve it. */
  sync?: Latencies | null;
  reads?: LoadResult;
  readHwmMb?: number;
  /** The first eth_estimateGas and eth_call a test run sends, a second after the peer started (ms). */
  readonly first: { readonly estimateMs: number; readonly callMs: number };
}

/** A second after the peer started (a test run does not begin sooner): its first eth_estimateGas, then its first eth_call. */
async function firstCalls(url: string): Promise<Loop['first']> {
  await new Promise((r) => setTimeout(r, 1_000));
  const timed = async (method: string, params: unknown[]) => {
    const t = performance.now();
    await rpc(url, method, params);
    return performance.now() - t;
  };
  const estimateMs = await timed('eth_estimateGas', [{ from: SENDER, to: RECIPIENTS[0], value: '0x1' }]);
  return { estimateMs, callMs: await timed('eth_call', [{ to: RECIPIENTS[0], data: '0x' }, 'latest']) };
}

function fields(kind: PhaseKey, i: number, token: Hex): Omit<TxFields, 'nonce'> {
  const to = RECIPIENTS[i % RECIPIENTS.length]!;
  if (kind === 'value') return { to, value: 1n, gasLimit: 21_000n };
  if (kind === 'erc20') return { to: token, data: transferData(to, 1n), gasLimit: 80_000n };
  return { data: tokenDeployData(), gasLimit: 3_000_000n };
}

/** Signs the next transaction of the loop (signing is not timed: it happens before the send's clock starts). */
const next = (l: Loop, kind: PhaseKey, i: number) => bytesToHex(signLegacy(KEY, { nonce: l.nonce++, ...fields(kind, i, l.token) })) as Hex;

/** Sends and waits (by default a send, then receipt polls), checking that the transaction succeeded; returns the milliseconds from send to receipt. */
async function transact(l: Loop, raw: Hex, send: (url: string, raw: Hex) => Promise<any> = sendAndWait): Promise<number> {
  const t0 = performance.now();
  const receipt = await send(l.peer.url, raw);
  const ms = performance.now() - t0;
  if (receipt.status !== '0x1') throw new Error(`${l.name}: transaction ${receipt.transactionHash} failed`);
  return ms;
}

async function round(l: Loop): Promise<RoundResult> {
  const firstBlock = Number(await rpc(l.peer.url, 'eth_blockNumber'));
  const all: number[] = [];
  const phases = {} as Record<PhaseKey, PhaseResult>;
  const t0 = performance.now();
  const whole = cpuWindow(l.peer.pid);
  for (const phase of PHASES) {
    const latencies: number[] = [];
    const p0 = performance.now();
    const window = cpuWindow(l.peer.pid);
    for (let i = 0; i < phase.count; i++) latencies.push(await transact(l, next(l, phase.key, i)));
    phases[phase.key] = { ...stats(latencies, (performance.now() - p0) / 1000), cpu: window.end(phase.count) };
    all.push(...latencies);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = whole.end(all.length);
  const total = stats(all, seconds);
  const blocks = Number(await rpc(l.peer.url, 'eth_blockNumber')) - firstBlock;
  if (blocks !== all.length) throw new Error(`${l.name} mined ${blocks} blocks for ${all.length} transactions`);
  return { phases, perSecond: total.perSecond, blocksPerSecond: blocks / seconds, p50Ms: total.p50Ms, p99Ms: total.p99Ms, cpu };
}

/** A value transfer mined, then one call timed, AFTER_BLOCK times after AFTER_BLOCK_WARMUP: estimates and calls in turn, each the first request at its head. */
async function callsAfterBlocks(l: Loop): Promise<NonNullable<Loop['afterBlock']>> {
  const estimates: number[] = [];
  const calls: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < AFTER_BLOCK_WARMUP + AFTER_BLOCK; i++) {
    await transact(l, next(l, 'value', i));
    const estimate = i % 2 === 0;
    const t = performance.now();
    const answer = estimate
      ? await rpc<string>(l.peer.url, 'eth_estimateGas', [{ from: SENDER, to: l.token, data: transferData(RECIPIENTS[i % RECIPIENTS.length]!, 1n) }])
      : await rpc<string>(l.peer.url, 'eth_call', [{ to: l.token, data: balanceOfData(SENDER) }, 'latest']);
    if (i >= AFTER_BLOCK_WARMUP) (estimate ? estimates : calls).push(performance.now() - t);
    if (!/^0x[0-9a-f]+$/.test(answer)) throw new Error(`${l.name}: ${estimate ? 'eth_estimateGas' : 'eth_call'} answered ${answer}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { estimate: stats(estimates, seconds), call: stats(calls, seconds) };
}

/**
 * A test as a Hardhat suite's `loadFixture` runs it, FIXTURE_TESTS times after as many uncounted: evm_snapshot,
 * three ERC-20 transfers (send → receipt), a balanceOf call, evm_revert back to the snapshot.
 */
async function fixtureTests(l: Loop): Promise<NonNullable<Loop['fixtures']>> {
  const tests: number[] = [];
  const snapshots: number[] = [];
  const reverts: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < 2 * FIXTURE_TESTS; i++) {
    const start = performance.now();
    const id = await rpc<string>(l.peer.url, 'evm_snapshot');
    const snapped = performance.now();
    const nonce = l.nonce;
    for (let k = 0; k < 3; k++) await transact(l, next(l, 'erc20', k));
    await rpc<string>(l.peer.url, 'eth_call', [{ to: l.token, data: balanceOfData(SENDER) }, 'latest']);
    const reverting = performance.now();
    if ((await rpc<boolean>(l.peer.url, 'evm_revert', [id])) !== true) throw new Error(`${l.name}: evm_revert ${id} answered false`);
    const end = performance.now();
    l.nonce = nonce;
    if (i < FIXTURE_TESTS) continue;
    tests.push(end - start);
    snapshots.push(snapped - start);
    reverts.push(end - reverting);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { test: stats(tests, seconds), snapshot: stats(snapshots, seconds), revert: stats(reverts, seconds) };
}

/** Sends and waits in one request (EIP-7966). */
const sendSync = (url: string, raw: Hex) => rpc<{ status: string; transactionHash: string }>(url, 'eth_sendRawTransactionSync', [raw]);

/**
 * The round's mix at half its counts, each transaction sent with eth_sendRawTransactionSync, after SYNC_WARMUP
 * uncounted; null when the peer does not serve the method (its first send then goes the usual way).
 */
async function syncLoop(l: Loop): Promise<Latencies | null> {
  const first = next(l, 'value', 0);
  try {
    await transact(l, first, sendSync);
  } catch (err) {
    if (!/not supported|does not exist|not found/i.test((err as Error).message)) throw err;
    await transact(l, first);
    return null;
  }
  for (let i = 1; i < SYNC_WARMUP; i++) await transact(l, next(l, 'value', i), sendSync);
  const latencies: number[] = [];
  const t0 = performance.now();
  for (const phase of PHASES) for (let i = 0; i < phase.count / 2; i++) latencies.push(await transact(l, next(l, phase.key, i), sendSync));
  return stats(latencies, (performance.now() - t0) / 1000);
}

const blockRead = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', true] });
const readOk = (text: string) => text.includes('"transactions":[{');

async function main(): Promise<Partial<Record<Name, Loop>>> {
  const loops: Loop[] = [];
  try {
    for (const name of selected) {
      log(`${name}: starting`);
      const peer = await startPeer(name, { chainId: CHAIN_ID, keys: SENDER_KEYS.map((k) => bytesToHex(k)), balanceWei: GENESIS_BALANCE });
      const first = await firstCalls(peer.url);
      const { token } = await setupPeer(peer.url);
      loops.push({ name, peer, token, nonce: BigInt(await rpc<string>(peer.url, 'eth_getTransactionCount', [SENDER, 'latest'])), rounds: [], first });
    }
    const inTurn = async (r: number, run: (l: Loop) => Promise<void>) => {
      for (let i = 0; i < loops.length; i++) await run(loops[(r + i) % loops.length]!);
    };
    await inTurn(0, async (l) => {
      log(`${l.name}: ${WARMUP} transactions, warm-up (not counted)`);
      for (let i = 0; i < WARMUP; i++) await transact(l, next(l, PHASES[i % PHASES.length]!.key, i));
    });
    for (let r = 0; r < ROUNDS; r++) {
      await inTurn(r, async (l) => {
        log(`${l.name}: round ${r + 1} of ${ROUNDS}`);
        l.rounds.push(await round(l));
      });
    }
    // The latest block of each peer: one ERC-20 transfer, as in the ERC-20 phase.
    await inTurn(ROUNDS, async (l) => {
      await transact(l, next(l, 'erc20', 0));
      log(`${l.name}: eth_getBlockByNumber(latest, true) for ${SECONDS} s`);
      await runLoad(l.peer.url, { concurrency: CONCURRENCY, seconds: Math.min(1, SECONDS / 4), body: () => blockRead, ok: readOk });
      l.reads = await runLoad(l.peer.url, { concurrency: CONCURRENCY, seconds: SECONDS, body: () => blockRead, ok: readOk });
      l.readHwmMb = l.peer.memory().hwmMb;
    });
    await inTurn(ROUNDS, async (l) => {
      log(`${l.name}: ${AFTER_BLOCK} transfers, each followed by eth_estimateGas or eth_call`);
      l.afterBlock = await callsAfterBlocks(l);
    });
    await inTurn(ROUNDS, async (l) => {
      log(`${l.name}: ${2 * FIXTURE_TESTS} fixture tests (snapshot, 3 ERC-20 transfers, a call, revert), the first ${FIXTURE_TESTS} uncounted`);
      l.fixtures = await fixtureTests(l);
    });
    await inTurn(ROUNDS, async (l) => {
      log(`${l.name}: the round's mix at half its counts, each with eth_sendRawTransactionSync (EIP-7966), where served`);
      l.sync = await syncLoop(l);
    });
    return Object.fromEntries(loops.map((l) => [l.name, l]));
  } finally {
    await Promise.all(loops.map((l) => l.peer.stop()));
  }
}

process.on('SIGINT', () => process.exit(130));
let results: Partial<Record<Name, Loop>>;
try {
  results = await main();
} catch (err) {
  console.error(`\nbench:devloop failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
}

// ---- report --------------------------------------------------------------------------------------
const median = (rounds: readonly RoundResult[]) => [...rounds].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(rounds.length / 2)]!;
const nf = (n: number | undefined, digits = 0) =>
  n === undefined || !Number.isFinite(n) ? '–' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? `${(a / b).toFixed(2)}×` : '–');
const COLS = [40, 15, 15, 15, 11, 11];
const row = (...cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(COLS[i]!) : c.padStart(COLS[i]!))).join(' '));
const rule = () => console.log('-'.repeat(COLS.reduce((a, b) => a + b + 1, -1)));
const med = Object.fromEntries(Object.entries(results).map(([n, l]) => [n, median(l!.rounds)])) as Partial<Record<Name, RoundResult>>;
const line = (label: string, get: (r: RoundResult) => number, digits = 0, ratios = true) => {
  const [m, h, a] = NAMES.map((n) => (med[n] ? get(med[n]!) : undefined));
  row(label, nf(m, digits), nf(h, digits), nf(a, digits), ratios ? ratio(m, h) : '', ratios ? ratio(m, a) : '');
};
const env = [
  process.env.BENCH_DEVLOOP_PEERS && `BENCH_DEVLOOP_PEERS=${process.env.BENCH_DEVLOOP_PEERS}`,
  process.env.BENCH_DEVLOOP_ROUNDS && `BENCH_DEVLOOP_ROUNDS=${ROUNDS}`, process.env.BENCH_SECONDS && `BENCH_SECONDS=${SECONDS}`,
].filter(Boolean);
console.log(`\n$ ${[...env, 'npm run bench:devloop'].join(' ')}`);
console.log(`node ${process.version} (${NODE_BIN}), ${cpus().length} cores; all peers up at once on 127.0.0.1, each round run on each in turn`);
console.log(`1-min load average: ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at the end`);
for (const n of selected) console.log(`  ${n.padEnd(8)} ${results[n]!.peer.command}`);

console.log(`\nSequential send → receipt, one sender, ${PHASES.map((p) => `${p.count} ${p.label}`).join(', then ')}; median of ${ROUNDS} rounds after ${WARMUP} uncounted`);
rule();
row('', 'mmnode', 'hardhat 3', 'anvil', 'mm/hardhat', 'mm/anvil');
rule();
line('all 1,000: transactions/s', (r) => r.perSecond);
line('    blocks/s (one transaction each)', (r) => r.blocksPerSecond);
line('    p50 ms', (r) => r.p50Ms, 2, false);
line('    p99 ms', (r) => r.p99Ms, 2, false);
/** CPU rows of a window: the peer's, its main thread's (where mmnode does a transaction's whole path) and the client's. */
const cpuLines = (get: (r: RoundResult) => CpuShare) => {
  line('    CPU per transaction: the peer (ms)', (r) => get(r).peerMs, 2, false);
  line('        of it its main thread (ms)', (r) => get(r).byThread.find(([t]) => t === 'main')?.[1] ?? 0, 2, false);
  line('    CPU per transaction: the client (ms)', (r) => get(r).generatorMs, 2, false);
};
cpuLines((r) => r.cpu);
for (const n of selected) {
  const threads = med[n]!.cpu.byThread.slice(0, 4).map(([t, ms]) => `${t} ${nf(ms, 2)}`).join(', ');
  console.log(`    ${n}'s threads (ms per transaction): ${threads}`);
}
for (const p of PHASES) {
  line(`${p.label}: transactions/s`, (r) => r.phases[p.key].perSecond);
  line('    p50 ms', (r) => r.phases[p.key].p50Ms, 2, false);
  line('    p99 ms', (r) => r.phases[p.key].p99Ms, 2, false);
  cpuLines((r) => r.phases[p.key].cpu);
}
rule();
console.log('The first calls of a test run, a second after the peer started (ms)');
row('eth_estimateGas, a value transfer', ...NAMES.map((n) => nf(results[n]?.first.estimateMs, 1)));
row('then eth_call', ...NAMES.map((n) => nf(results[n]?.first.callMs, 1)));
rule();
console.log(`Right after a block, the first request at the new head (${AFTER_BLOCK / 2} of each after ${AFTER_BLOCK_WARMUP} uncounted; ms)`);
for (const [label, key] of [['eth_estimateGas, an ERC-20 transfer', 'estimate'], ['eth_call, balanceOf', 'call']] as const) {
  const at = (n: Name) => results[n]?.afterBlock?.[key];
  row(`${label}: p50`, ...NAMES.map((n) => nf(at(n)?.p50Ms, 2)));
  row('    p99', ...NAMES.map((n) => nf(at(n)?.p99Ms, 2)));
}
rule();
console.log(`Fixture tests: evm_snapshot, 3 ERC-20 transfers, a balanceOf call, evm_revert (${FIXTURE_TESTS}; ms, ratios of speed)`);
for (const [label, key] of [['whole test', 'test'], ['evm_snapshot', 'snapshot'], ['evm_revert', 'revert']] as const) {
  const at = (n: Name) => results[n]?.fixtures?.[key]?.p50Ms;
  row(`${label}: p50`, ...NAMES.map((n) => nf(at(n), 2)), ratio(at('hardhat'), at('mmnode')), ratio(at('anvil'), at('mmnode')));
}
rule();
console.log(`One request per transaction: eth_sendRawTransactionSync (EIP-7966), ${PHASES.map((p) => `${p.count / 2} ${p.label}`).join(', ')}`);
const syncRate = (n: Name) => results[n]?.sync?.perSecond;
row('transactions/s', ...NAMES.map((n) => (results[n]?.sync === null ? 'not served' : nf(syncRate(n)))), ratio(syncRate('mmnode'), med.hardhat?.perSecond), ratio(syncRate('mmnode'), syncRate('anvil')));
row('    p50 ms', ...NAMES.map((n) => nf(results[n]?.sync?.p50Ms, 2)));
console.log('    (mm/hardhat: against Hardhat 3\'s send → receipt loop above, as it does not serve the method)');
rule();
const reads = (n: Name) => results[n]?.reads?.perSecond;
row(`eth_getBlockByNumber(latest, true) req/s`, nf(reads('mmnode')), nf(reads('hardhat')), nf(reads('anvil')), ratio(reads('mmnode'), reads('hardhat')), ratio(reads('mmnode'), reads('anvil')));
row(`    concurrency ${CONCURRENCY}, ${SECONDS} s; p50 / p99 ms`, ...NAMES.map((n) => {
  const r = results[n]?.reads;
  return r ? `${nf(r.p50Ms, 1)} / ${nf(r.p99Ms, 1)}` : '–';
}));
for (const n of selected) {
  const r = results[n]!.reads!;
  if (r.errors) console.log(`    ${n}: ${r.errors} errors, first: ${(r.firstError ?? '').slice(0, 120)}`);
}
row('peak RSS, loop and reads (MiB, VmHWM)', ...NAMES.map((n) => nf(results[n]?.readHwmMb)));

console.log('\nTargets (ratios from this run)');
rule();
const target = (label: string, ours: number | undefined, theirs: number | undefined) => {
  const verdict = ours === undefined || theirs === undefined ? 'n/a ' : ours >= theirs ? 'PASS' : 'MISS';
  console.log(`${verdict}  ${label.padEnd(56)} ${nf(ours)} vs ${nf(theirs)} (${ratio(ours, theirs)})`);
};
target('send → receipt transactions/s >= Hardhat 3', med.mmnode?.perSecond, med.hardhat?.perSecond);
target('automine blocks/s, one transaction each, >= Hardhat 3', med.mmnode?.blocksPerSecond, med.hardhat?.blocksPerSecond);
target('eth_getBlockByNumber(latest, true) req/s >= Hardhat 3', reads('mmnode'), reads('hardhat'));
console.log(`\nTook ${((Date.now() - started) / 1000).toFixed(0)} s.`);
process.exit(0);

/**
 * `npm run bench`: mmnode against Hardhat 3 and Ganache 7, same workloads, same run, measured one
 * node at a time (the machine has 2 cores and the load generator needs one). A measurement, not a test:
 * exits 0 when a target is missed, non-zero only when a peer cannot be set up.
 *
 *   BENCH_SECONDS=10   seconds per read workload (default 10, at most 20)
 *   BENCH_PEERS=mmnode,hardhat,ganache   which peers to run (default all three)
 */
import { bytesToHex } from '@ethereumjs/util';
import { cpus, loadavg } from 'node:os';
import type { LoadResult } from './load.ts';
import { NODE_BIN, PEERS, startPeer, type Peer, type PeerName } from './peers.ts';
import { runCallsWithWorkers, runHeavy, STORM, TRACE_FILTER, type HeavyResult } from './heavy.ts';
import { WORKER_IDLE_MS } from '../src/rpc/workers/options.ts';
import {
  bestOf, buildTransfers, CHAIN_ID, GENESIS_BALANCE, rawCeilings, READ_WORKLOADS, runRead, runWrites, SENDER_COUNT, SENDER_KEYS,
  setupPeer, TRANSFER_COUNT, type Ceilings, type Hex, type SignedTx, type WriteResult,
} from './workloads.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = 32;
const selected = (process.env.BENCH_PEERS ?? PEERS.join(',')).split(',').map((s) => s.trim()) as (typeof PEERS)[number][];
// Bounded so a whole run stays under ~8 minutes (5 read workloads × 3 peers).
if (!(SECONDS > 0 && SECONDS <= 20)) throw new Error('BENCH_SECONDS must be more than 0 and at most 20');
for (const p of selected) if (!PEERS.includes(p)) throw new Error(`unknown peer ${p} in BENCH_PEERS (known: ${PEERS.join(', ')})`);

const started = Date.now();
// Other work on this 2-core machine skews every figure: the report shows the load average around the run.
const loadAtStart = loadavg()[0]!;
const log = (msg: string) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);

interface PeerResult {
  command: string;
  reads: Record<string, LoadResult>;
  /** VmHWM after each read workload. */
  readHwm: Record<string, number>;
  native?: WriteResult;
  erc20?: WriteResult;
  idleMb: number;
  readPeakMb: number;
  peakMb: number;
}

const running: Peer[] = [];
process.on('SIGINT', () => { void Promise.all(running.map((p) => p.stop())).then(() => process.exit(130)); });

type WriteKind = 'native' | 'erc20';
/** Write workloads run this many times on each peer; the report shows each peer's median round. */
const WRITE_ROUNDS = 3;
/**
 * Before the rounds, each peer runs this many transfers of each kind, not counted (as the reads'
 * warm-up): a first round otherwise also times the compilation of the peer's write path.
 */
const WRITE_WARMUP = 500;

interface Started {
  readonly name: PeerName; readonly peer: Peer; readonly token: Hex; readonly result: PeerResult;
  /** Pre-signed transfers for the warm-up and per round, and the results of the rounds run so far. */
  readonly warmup: Record<WriteKind, SignedTx[][]>;
  readonly transfers: Record<WriteKind, SignedTx[][]>[];
  readonly writes: Record<WriteKind, WriteResult[]>;
}

const median = (rounds: readonly WriteResult[]): WriteResult =>
  [...rounds].sort((a, b) => (a.minedPerSecond || 0) - (b.minedPerSecond || 0))[Math.floor(rounds.length / 2)]!;

/**
 * Every peer runs at once (the idle ones take no CPU) and each workload runs on each peer in turn,
 * the order rotating: this machine's speed drifts by tens of percent over minutes, and a peer
 * measured minutes after another would carry that drift into the ratios.
 */
async function benchAll(names: readonly PeerName[]): Promise<Partial<Record<PeerName, PeerResult>>> {
  try {
    const peers: Started[] = [];
    for (const name of names) {
      log(`${name}: starting`);
      const peer = await startPeer(name, { chainId: CHAIN_ID, keys: SENDER_KEYS.map((k) => bytesToHex(k)), balanceWei: GENESIS_BALANCE });
      running.push(peer);
      const prepared = await setupPeer(peer.url);
      // Pre-signed before any timing, each round and workload on the nonces after the one before.
      const transfers: Record<WriteKind, SignedTx[][]>[] = [];
      let nonces = prepared.nonces;
      const next = (kind: WriteKind, count?: number) => {
        const txs = buildTransfers(kind, nonces, prepared.token, count);
        nonces = nonces.map((n, s) => n + BigInt(txs[s]!.length));
        return txs;
      };
      const warmup = { native: next('native', WRITE_WARMUP), erc20: next('erc20', WRITE_WARMUP) };
      for (let r = 0; r < WRITE_ROUNDS; r++) transfers.push({ native: next('native'), erc20: next('erc20') });
      const result: PeerResult = { command: peer.command, reads: {}, readHwm: {}, idleMb: peer.memory().rssMb, readPeakMb: 0, peakMb: 0 };
      peers.push({ name, peer, token: prepared.token, result, warmup, transfers, writes: { native: [], erc20: [] } });
    }
    const inTurn = async (round: number, run: (p: Started) => Promise<void>) => {
      for (let i = 0; i < peers.length; i++) await run(peers[(round + i) % peers.length]!);
    };
    let round = 0;
    for (const w of READ_WORKLOADS) {
      await inTurn(round++, async ({ name, peer, token, result }) => {
        log(`${name}: ${w.label} for ${SECONDS} s`);
        await runRead(peer.url, w, token, Math.min(1, SECONDS / 4), CONCURRENCY); // warm-up, not counted
        result.reads[w.key] = await runRead(peer.url, w, token, SECONDS, CONCURRENCY);
        result.readHwm[w.key] = peer.memory().hwmMb;
      });
    }
    for (const { peer, result } of peers) result.readPeakMb = peer.memory().hwmMb;
    for (const kind of ['native', 'erc20'] as const) {
      await inTurn(round++, async (p) => {
        log(`${p.name}: ${WRITE_WARMUP} ${kind === 'native' ? 'native' : 'ERC-20'} transfers, warm-up (not counted)`);
        await runWrites(p.peer.url, p.warmup[kind]);
      });
    }
    for (let r = 0; r < WRITE_ROUNDS; r++) {
      for (const kind of ['native', 'erc20'] as const) {
        await inTurn(round++, async (p) => {
          log(`${p.name}: ${TRANSFER_COUNT} ${kind === 'native' ? 'native' : 'ERC-20'} transfers, round ${r + 1} of ${WRITE_ROUNDS}`);
          p.writes[kind].push(await runWrites(p.peer.url, p.transfers[r]![kind], undefined, p.peer.pid));
        });
      }
    }
    for (const { peer, result, writes } of peers) {
      result.native = median(writes.native);
      result.erc20 = median(writes.erc20);
      result.peakMb = peer.memory().hwmMb;
    }
    return Object.fromEntries(peers.map((p) => [p.name, p.result]));
  } finally {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  }
}

// ---- run -----------------------------------------------------------------------------------------
const command = `BENCH_SECONDS=${SECONDS}${process.env.BENCH_PEERS ? ` BENCH_PEERS=${process.env.BENCH_PEERS}` : ''} npm run bench`;
const CALL_SECONDS = Math.max(3, Math.min(SECONDS, 5));
log(`raw in-process ceilings (@ethereumjs/vm)`);
let ceilings: Ceilings = await rawCeilings(CALL_SECONDS);
let results: Partial<Record<PeerName, PeerResult>>;
try {
  results = await benchAll(selected);
} catch (err) {
  console.error(`\nbench failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
}
// Heavy requests and eth_call with 1, 2 and 4 RPC workers: mmnode alone, fresh nodes (bench/heavy.ts).
const WORKER_COUNTS = [1, 2, 4] as const;
const callsByWorkers: Partial<Record<number, LoadResult>> = {};
let heavy: (HeavyResult & { command: string }) | undefined;
if (selected.includes('mmnode')) {
  const peerOpts = { chainId: CHAIN_ID, keys: SENDER_KEYS.map((k) => bytesToHex(k)), balanceWei: GENESIS_BALANCE };
  try {
    for (const n of WORKER_COUNTS) {
      log(`mmnode --rpc-workers ${n}: eth_call balanceOf for ${SECONDS} s`);
      callsByWorkers[n] = await runCallsWithWorkers(peerOpts, n, SECONDS, CONCURRENCY);
    }
    heavy = await runHeavy(peerOpts, log);
  } catch (err) {
    console.error(`\nbench failed: ${(err as Error).stack ?? err}`);
    process.exit(1);
  }
}
// Measured again at the end (warm, one runTx pass), keeping the better figures: see rawCeilings.
log(`raw in-process ceilings again`);
ceilings = bestOf(ceilings, await rawCeilings(CALL_SECONDS, 1));

// ---- report --------------------------------------------------------------------------------------
const nf = (n: number | undefined, digits = 0) =>
  n === undefined || !Number.isFinite(n) ? '–' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const known = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n);
const ratio = (a: number | undefined, b: number | undefined) => (known(a) && known(b) && b ? `${(a / b).toFixed(2)}×` : '–');
const COLS = [46, 14, 14, 14, 11, 11];
const row = (...cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(COLS[i]!) : c.padStart(COLS[i]!))).join(' '));
const rule = () => console.log('-'.repeat(COLS.reduce((a, b) => a + b + 1, -1)));
const mm = results.mmnode, hh = results.hardhat, gn = results.ganache;
const header = (title: string) => { console.log(`\n${title}`); rule(); row('', 'mmnode', 'hardhat 3', 'ganache 7', 'mm/hardhat', 'mm/ganache'); rule(); };
const triple = (label: string, get: (r: PeerResult) => number | undefined, digits = 0, ratios = true) => {
  const [a, b, c] = [mm, hh, gn].map((r) => (r ? get(r) : undefined));
  row(label, nf(a, digits), nf(b, digits), nf(c, digits), ratios ? ratio(a, b) : '', ratios ? ratio(a, c) : '');
};

console.log(`\n$ ${command}`);
console.log(`node ${process.version} (${NODE_BIN}), ${cpus().length} cores; all peers up at once on 127.0.0.1, each workload run on each in turn`);
console.log(`1-min load average: ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at the end (the bench itself keeps ~2 busy)`);
for (const name of selected) console.log(`  ${name.padEnd(8)} ${results[name]!.command}`);

header(`(a) Reads: concurrency ${CONCURRENCY}, ${SECONDS} s each (requests/s; a batch counts as one request)`);
for (const w of READ_WORKLOADS) {
  triple(`${w.label}${w.extra ? ' [extra]' : ''}  req/s`, (r) => r.reads[w.key]!.perSecond);
  const lat = (r?: PeerResult) => (r ? `${nf(r.reads[w.key]!.p50Ms, 1)} / ${nf(r.reads[w.key]!.p99Ms, 1)}` : '–');
  row('    p50 / p99 ms', lat(mm), lat(hh), lat(gn), '', '');
  for (const name of selected) {
    const r = results[name]!.reads[w.key]!;
    if (r.errors) row(`    ${name}: ${nf(r.errors)} errors, first: ${(r.firstError ?? '').replace(/\s+/g, ' ').slice(0, 110)}`);
  }
}

const percent = (share: number | undefined) => (share === undefined ? undefined : share * 100);
/**
 * The mined/s a peer could reach with its CPU per transfer and the load generator's if the machine's cores
 * were never idle: neither threads nor overlap can go past it, only less CPU per transfer can.
 */
const bothCoresBound = (w: WriteResult | undefined) => (w?.cpu ? (cpus().length * 1000) / (w.cpu.peerMs + w.cpu.generatorMs) : undefined);

header(`(b) Writes: ${TRANSFER_COUNT} pre-signed legacy transactions over ${SENDER_COUNT} senders (one in flight per sender); median of ${WRITE_ROUNDS} rounds after a warm-up of ${WRITE_WARMUP} of each kind`);
for (const [kind, get] of [['native transfers', (r: PeerResult) => r.native], ['ERC-20 transfers', (r: PeerResult) => r.erc20]] as const) {
  triple(`${kind}: accepted/s`, (r) => get(r)?.acceptedPerSecond);
  triple('    seconds until every receipt exists', (r) => get(r)?.minedSeconds, 2, false);
  triple('    mined/s', (r) => get(r)?.minedPerSecond);
  triple('    blocks used', (r) => get(r)?.blocks, 0, false);
  triple('    then: all 2,000 receipts, batches of 50 (s)', (r) => get(r)?.receiptSeconds, 2, false);
  triple('    retries (pool window full)', (r) => get(r)?.retries, 0, false);
  triple('    CPU per transfer: the peer (ms)', (r) => get(r)?.cpu?.peerMs, 3, false);
  triple('    CPU per transfer: the load generator (ms)', (r) => get(r)?.cpu?.generatorMs, 3, false);
  triple('    machine idle (%)', (r) => percent(get(r)?.cpu?.idleShare), 0, false);
  triple('    both cores busy: at most mined/s', (r) => bothCoresBound(get(r)), 0, false);
  for (const name of selected) {
    const threads = get(results[name]!)?.cpu?.byThread.slice(0, 4).map(([t, ms]) => `${t} ${nf(ms, 3)}`).join(', ');
    if (threads) row(`    ${name}'s threads (ms per transfer): ${threads}`);
  }
  for (const name of selected) {
    const w = get(results[name]!)!;
    if (w.refused || w.failed || w.missing || w.firstError) {
      row(`    ${name}: ${w.refused} refused, ${w.failed} failed and ${w.missing} missing receipts; first: ${(w.firstError ?? '').slice(0, 90)}`);
    }
  }
}

console.log(`\n(c) In-process ceilings (@ethereumjs/vm, mmnode's Common with native ecrecover, in-memory trie; best of the start and end of the run)`);
console.log(`    raw: the library's default state manager; tuned: with state caches and, for runTx, one checkpoint per block, as the node runs runTx`);
console.log(`    (the node's blocks apply plain value transfers without runTx: docs/performance.md "Plain transfers")`);
rule();
const pct = (a: number | undefined, b: number) => (known(a) ? `${((a / b) * 100).toFixed(0)}%` : '–');
row('', 'raw/s', 'mmnode/s', 'mmnode/raw');
rule();
for (const [label, raw, tuned, ours] of [
  ['runTx native transfer (+ state root)', ceilings.runTxNativePerSecond, ceilings.tunedNativePerSecond, mm?.native?.minedPerSecond],
  ['runTx ERC-20 transfer (+ state root)', ceilings.runTxErc20PerSecond, ceilings.tunedErc20PerSecond, mm?.erc20?.minedPerSecond],
  ['evm.runCall balanceOf', ceilings.runCallPerSecond, ceilings.tunedCallPerSecond, mm?.reads.call?.perSecond],
] as const) {
  row(label, nf(raw), nf(ours), pct(ours, raw));
  row('    tuned', nf(tuned), nf(ours), pct(ours, tuned));
}

header('(d) Node process memory (MiB, /proc/<pid>/status)');
triple('RSS after setup, idle', (r) => r.idleMb);
for (const w of READ_WORKLOADS) triple(`    VmHWM after ${w.label}`, (r) => r.readHwm[w.key]);
triple('peak RSS through the read load (VmHWM)', (r) => r.readPeakMb);
triple('peak RSS through the whole run (VmHWM)', (r) => r.peakMb);

if (heavy) {
  const h = heavy;
  console.log(`\n(e) Heavy requests (mmnode alone, default workers: ${h.command.split(' --').slice(1).map((a) => `--${a}`).join(' ')})`);
  rule();
  console.log(`eth_blockNumber one after another while ${STORM.calls} eth_calls of ${nf(STORM.callGas)} gas and ${STORM.traces} default traces of a 9.2M-gas transaction run:`);
  console.log(`    ${nf(h.probe.count)} answers, p50 ${nf(h.probe.p50Ms, 2)} ms, p99 ${nf(h.probe.p99Ms, 2)} ms, max ${nf(h.probe.maxMs, 1)} ms`);
  console.log(`    the ${STORM.calls + STORM.traces} heavy requests: ${h.storm.ok} answered, ${h.storm.limited} -32005, ${h.storm.cut} streams cut at their deadline, ${h.storm.other} other, all within ${nf(h.storm.seconds, 1)} s`);
  if (h.storm.firstLimit) console.log(`    first -32005 or other: ${h.storm.firstLimit.slice(0, 150)}`);
  console.log(`RSS around ${nf(TRACE_FILTER.calls)} trace_filter calls over ${TRACE_FILTER.blocks} blocks (after ${TRACE_FILTER.warmup} uncounted): ${nf(h.traceFilter.beforeMb, 1)} → ${nf(h.traceFilter.afterMb, 1)} MiB, ${nf(h.traceFilter.seconds, 1)} s, ${h.traceFilter.errors} errors`);
  console.log(`RSS after the storm ${nf(h.rest.afterStormMb, 1)} MiB; once the workers beyond the kept one retired (${WORKER_IDLE_MS / 1000} s idle): ${nf(h.rest.retiredMb, 1)} MiB`);
  console.log('eth_call balanceOf by worker count (fresh node each, concurrency 32):');
  for (const n of WORKER_COUNTS) {
    const r = callsByWorkers[n];
    console.log(`    --rpc-workers ${n}: ${nf(r?.perSecond)} req/s, p50/p99 ${nf(r?.p50Ms, 1)} / ${nf(r?.p99Ms, 1)} ms (${ratio(r?.perSecond, hh?.reads.call?.perSecond)} Hardhat 3)`);
  }
}

console.log('\nTargets (ratios from this run)');
rule();
const target = (label: string, ours: number | undefined, theirs: number | undefined, factor: number, detail: string) => {
  // A workload that did not finish (NaN) is a miss; a peer that was not run is n/a.
  const verdict = ours === undefined || theirs === undefined ? 'n/a ' : ours >= theirs * factor ? 'PASS' : 'MISS';
  console.log(`${verdict}  ${label.padEnd(50)} ${detail}`);
};
const readTarget = (key: string, label: string) =>
  target(`${label} >= Hardhat 3`, mm?.reads[key]?.perSecond, hh?.reads[key]?.perSecond, 1,
    `${nf(mm?.reads[key]?.perSecond)} vs ${nf(hh?.reads[key]?.perSecond)} req/s (${ratio(mm?.reads[key]?.perSecond, hh?.reads[key]?.perSecond)})`);
readTarget('getBalance', 'eth_getBalance');
readTarget('batch100', 'batch of 100 eth_getBalance');
readTarget('blockNumber', 'eth_blockNumber');
const mmCall = mm?.reads.call?.perSecond;
target('eth_call >= 3x Ganache', mmCall, gn?.reads.call?.perSecond, 3,
  `${nf(mmCall)} vs ${nf(gn?.reads.call?.perSecond)} req/s (${ratio(mmCall, gn?.reads.call?.perSecond)}; hardhat ${ratio(mmCall, hh?.reads.call?.perSecond)})`);
target('eth_call >= 80% of raw runCall', mmCall, ceilings.runCallPerSecond, 0.8, `${nf(mmCall)} vs ${nf(ceilings.runCallPerSecond)}/s (${pct(mmCall, ceilings.runCallPerSecond)})`);
for (const [kind, writes, raw] of [
  ['native transfers', (r?: PeerResult) => r?.native, ceilings.runTxNativePerSecond],
  ['ERC-20 transfers', (r?: PeerResult) => r?.erc20, ceilings.runTxErc20PerSecond],
] as const) {
  const get = (r?: PeerResult) => writes(r)?.minedPerSecond;
  const [ourBound, theirBound] = [bothCoresBound(writes(mm)), bothCoresBound(writes(hh))];
  target(`${kind} mined/s >= Hardhat 3`, get(mm), get(hh), 1,
    `${nf(get(mm))} vs ${nf(get(hh))}/s (${ratio(get(mm), get(hh))}); both cores busy: at most ${nf(ourBound)} vs ${nf(theirBound)}/s (${ratio(ourBound, theirBound)})`);
  target(`${kind} mined/s >= 4x Ganache`, get(mm), get(gn), 4, `${nf(get(mm))} vs ${nf(get(gn))}/s (${ratio(get(mm), get(gn))}; hardhat ${ratio(get(mm), get(hh))})`);
  target(`${kind} mined/s >= 80% of raw runTx`, get(mm), raw, 0.8, `${nf(get(mm))} vs ${nf(raw)}/s (${pct(get(mm), raw)})`);
}
if (heavy) {
  const p99 = heavy.probe.p99Ms;
  console.log(`${p99 <= 50 ? 'PASS' : 'MISS'}  ${'eth_blockNumber p99 under heavy requests <= 50 ms'.padEnd(50)} ${nf(p99, 2)} ms`);
  for (const n of WORKER_COUNTS) {
    target(`eth_call, ${n} worker${n > 1 ? 's' : ''}, >= Hardhat 3`, callsByWorkers[n]?.perSecond, hh?.reads.call?.perSecond, 1,
      `${nf(callsByWorkers[n]?.perSecond)} vs ${nf(hh?.reads.call?.perSecond)} req/s (${ratio(callsByWorkers[n]?.perSecond, hh?.reads.call?.perSecond)})`);
  }
  const grown = heavy.traceFilter.afterMb - heavy.traceFilter.beforeMb;
  console.log(`${grown <= 50 ? 'PASS' : 'MISS'}  ${`RSS after ${nf(TRACE_FILTER.calls)} trace_filter within 50 MB`.padEnd(50)} ${grown >= 0 ? '+' : ''}${nf(grown, 1)} MiB`);
}
const rss = mm?.readPeakMb;
console.log(`${rss === undefined ? 'n/a ' : rss <= 150 ? 'PASS' : 'MISS'}  ${'peak RSS under the read load <= 150 MB'.padEnd(50)} ${nf(rss, 1)} MiB`);
console.log(`\nTook ${((Date.now() - started) / 1000).toFixed(0)} s.`);
process.exit(0);

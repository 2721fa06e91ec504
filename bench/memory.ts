/**
 * `npm run bench:memory`: where mmnode's resident memory goes, by component, under the read load of
 * `bench:peers` and the sequential loop of `bench:devloop` (mmnode alone, fresh node for each part).
 * The node runs as every launcher starts it (NODE_RUNTIME_FLAGS and NODE_RUNTIME_ENV), with
 * bench/memoryProbe.mjs loaded, which samples every 200 ms: VmRSS, RssFile (the node binary's pages,
 * shared libraries) and RssAnon, and per thread the V8 heap by space. What RssAnon holds beyond the V8
 * heaps is malloc (LevelDB's cache and memtable, buffers, V8's compiler zones, script sources),
 * thread stacks and the like. A measurement, not a test.
 *
 *   BENCH_MEMORY_PARTS=reads,devloop   which parts (default both)
 *   BENCH_SECONDS=5                    seconds per read workload (at most 20)
 */
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NODE_RUNTIME_ENV, NODE_RUNTIME_FLAGS } from '../src/config/index.ts';
import { WORKER_IDLE_MS } from '../src/rpc/workers/options.ts';
import { buildNodeBundle } from '../testnet/bundle.ts';
import { rpc, runLoad } from './load.ts';
import { BENCH, NODE_BIN, ROOT } from './peers.ts';
import { READ_WORKLOADS, RECIPIENTS, runRead, sendAndWait, SENDER_KEYS, setupPeer, signLegacy, tokenDeployData, transferData, type Hex } from './workloads.ts';

const PARTS = (process.env.BENCH_MEMORY_PARTS ?? 'reads,devloop').split(',').map((s) => s.trim());
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
if (!(SECONDS > 0 && SECONDS <= 20)) throw new Error('BENCH_SECONDS must be more than 0 and at most 20');
for (const p of PARTS) if (p !== 'reads' && p !== 'devloop') throw new Error(`unknown part ${p} in BENCH_MEMORY_PARTS (known: reads, devloop)`);
const PROBE = join(BENCH, 'memoryProbe.mjs');
/** The devloop part: this many transactions, one at a time (2 value transfers, 2 ERC-20 transfers, 1 deployment in turn). */
const LOOP_TXS = 1_200;

interface ThreadHeap { tid: number; cpuMs: number; v8: number; ext: number; spaces: Record<string, number> }
interface Sample { t: number; rss: number; hwm: number; anon: number; file: number; main: ThreadHeap; workers: ThreadHeap[] }
interface Row { label: string; perSecond?: number; at: Sample }

const started = Date.now();
const loadAtStart = loadavg()[0]!;
const log = (msg: string) => console.error(`[bench:memory ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withNode(run: (url: string, peak: (since: number) => Sample, now: () => Sample) => Promise<void>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mmnode-bench-memory-'));
  const probeOut = join(dataDir, 'probe.jsonl');
  const args = [...NODE_RUNTIME_FLAGS, '--import', PROBE, buildNodeBundle(), '--data-dir', join(dataDir, 'db'), '--rpc-port', '0', '--p2p-port', '0', '--quiet'];
  const child = spawn(NODE_BIN, args, { cwd: ROOT, env: { ...process.env, ...NODE_RUNTIME_ENV, MEMORY_PROBE_OUT: probeOut }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => { if (out.length < 64_000) out += d; });
  child.stderr!.on('data', (d) => { if (out.length < 64_000) out += d; });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const deadline = Date.now() + 60_000;
    let url: string | undefined;
    while (!url) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`mmnode did not start:\n${out.slice(0, 4000)}`);
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      url = line && JSON.parse(line).rpcUrl;
      await sleep(50);
    }
    const samples = (): Sample[] => (existsSync(probeOut) ? readFileSync(probeOut, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);
    const peak = (since: number) => samples().filter((s) => s.t >= since).reduce((a, b) => (b.rss > a.rss ? b : a));
    await sleep(500);
    await run(url, peak, () => samples().at(-1)!);
    return [...Object.entries(NODE_RUNTIME_ENV).map(([k, v]) => `${k}=${v}`), NODE_BIN, ...args.filter((a) => a !== '--import' && a !== PROBE)].join(' ');
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
let command = '';

if (PARTS.includes('reads')) {
  command = await withNode(async (url, peak, now) => {
    log('reads: setup (one eth_call: one worker starts)');
    const { token } = await setupPeer(url);
    await sleep(1_500);
    rows.push({ label: 'reads: idle after setup', at: now() });
    for (const w of READ_WORKLOADS) {
      log(`reads: ${w.label} for ${SECONDS} s`);
      const t0 = Date.now();
      await runRead(url, w, token, Math.min(1, SECONDS / 4), 32); // warm-up, not counted
      const r = await runRead(url, w, token, SECONDS, 32);
      await sleep(400);
      rows.push({ label: `    ${w.label} (peak)`, perSecond: r.perSecond, at: peak(t0) });
    }
    log(`reads: ${(WORKER_IDLE_MS + 5_000) / 1000} s without requests, for the workers beyond the kept one to retire`);
    await sleep(WORKER_IDLE_MS + 5_000);
    rows.push({ label: '    workers beyond the kept one retired', at: now() });
  });
}

if (PARTS.includes('devloop')) {
  command = await withNode(async (url, peak, now) => {
    log('devloop: setup');
    const { token } = await setupPeer(url);
    await sleep(1_500);
    rows.push({ label: 'devloop: idle after setup', at: now() });
    const key = SENDER_KEYS[1]!;
    let nonce = BigInt(await rpc<string>(url, 'eth_getTransactionCount', [bytesToHex(privateToAddress(key)), 'latest']));
    log(`devloop: ${LOOP_TXS} transactions, one at a time`);
    let t0 = Date.now();
    const p0 = performance.now();
    for (let i = 0; i < LOOP_TXS; i++) {
      const to = RECIPIENTS[i % RECIPIENTS.length]!;
      const kind = i % 5;
      const fields = kind < 2 ? { to, value: 1n, gasLimit: 21_000n }
        : kind < 4 ? { to: token, data: transferData(to, 1n), gasLimit: 80_000n } : { data: tokenDeployData(), gasLimit: 3_000_000n };
      const receipt = await sendAndWait(url, bytesToHex(signLegacy(key, { nonce: nonce++, ...fields })) as Hex);
      if (receipt.status !== '0x1') throw new Error(`transaction ${receipt.transactionHash} failed`);
    }
    rows.push({ label: `    ${LOOP_TXS} send → receipt (peak)`, perSecond: LOOP_TXS / ((performance.now() - p0) / 1000), at: peak(t0) });
    log(`devloop: eth_getBlockByNumber(latest, true) for ${SECONDS} s`);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', true] });
    const ok = (text: string) => text.includes('"transactions":[{');
    t0 = Date.now();
    await runLoad(url, { concurrency: 32, seconds: Math.min(1, SECONDS / 4), body: () => body, ok });
    const r = await runLoad(url, { concurrency: 32, seconds: SECONDS, body: () => body, ok });
    await sleep(400);
    rows.push({ label: '    eth_getBlockByNumber(latest, true) (peak)', perSecond: r.perSecond, at: peak(t0) });
  });
}

// ---- report --------------------------------------------------------------------------------------
const mib = (kb: number) => (kb / 1024).toFixed(1);
const COLS = [44, 8, 7, 6, 6, 17, 16, 7];
const line = (...cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(COLS[i]!) : c.padStart(COLS[i]!))).join(' '));
console.log(`\n$ ${process.env.BENCH_SECONDS ? `BENCH_SECONDS=${SECONDS} ` : ''}${process.env.BENCH_MEMORY_PARTS ? `BENCH_MEMORY_PARTS=${PARTS.join(',')} ` : ''}npm run bench:memory`);
console.log(`node ${process.version}, ${cpus().length} cores; 1-min load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at the end`);
console.log(`  mmnode ${command}`);
console.log('\nMiB (/proc/<pid>/status and v8.getHeapSpaceStatistics of each thread, sampled every 200 ms; a peak row is the sample of highest VmRSS)');
console.log('main V8 = new / old / the rest (code, large objects, ...); other anon = RssAnon less every V8 heap (malloc, stacks)');
line('', 'req/s', 'VmRSS', 'file', 'anon', 'main V8', 'workers V8', 'other');
for (const { label, perSecond, at } of rows) {
  const s = at.main.spaces;
  const rest = at.main.v8 - (s.new ?? 0) - (s.old ?? 0);
  const workers = at.workers.reduce((a, w) => a + w.v8, 0);
  line(label, perSecond === undefined ? '' : Math.round(perSecond).toLocaleString('en-US'), mib(at.rss), mib(at.file), mib(at.anon),
    `${mib(at.main.v8)} (${mib(s.new ?? 0)}/${mib(s.old ?? 0)}/${mib(rest)})`, at.workers.length ? at.workers.map((w) => mib(w.v8)).join(' + ') : '–',
    mib(at.anon - at.main.v8 - workers));
}
console.log(`\nTook ${((Date.now() - started) / 1000).toFixed(0)} s.`);
process.exit(0);

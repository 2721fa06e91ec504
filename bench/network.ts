/**
 * `npm run bench:network`: the network at scale, with real node processes on this machine.
 *
 * 1. BENCH_NODES (30) nodes, each on its own loopback address, every one given only node 0 as
 *    bootnode: the time until each has its minimum of peers (8, discovery does the rest), and the
 *    resident memory per node.
 * 2. Block propagation: after 10 uncounted blocks, BENCH_PROPAGATION_BLOCKS blocks, each mined on a random node; the time from
 *    its import there to its import on the last of the others (newHeads over WebSocket), p50/p99.
 *    Goal p99 ≤ 200 ms.
 * 3. A third of the nodes killed (-9) at random; blocks mined meanwhile; the victims restarted: the
 *    time from the restart until every head agrees again. Goal ≤ 10 s.
 * 4. A late joiner syncing BENCH_SYNC_BLOCKS blocks (a transaction each) from SYNC_PEERS peers at
 *    once, all in their own processes, the peers already connected to each other. Goal ≥ 1,500
 *    blocks/s. Also the joiner's CPU time per block, all threads and its main thread alone (the
 *    import's bound when a core is free).
 * BENCH_PARTS=network or BENCH_PARTS=sync runs one half. A measurement, not a test: it exits 0 when a goal is missed.
 */
import { ethers } from 'ethers';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startTestnet } from '../testnet/harness.ts';
import { startNodeProcess, type NodeProcess } from '../testnet/launch.ts';
import { cpuMs } from './cpu.ts';

const NODES = Number(process.env.BENCH_NODES ?? 30);
const BLOCKS = Number(process.env.BENCH_PROPAGATION_BLOCKS ?? 100);
const SYNC_BLOCKS = Number(process.env.BENCH_SYNC_BLOCKS ?? 5_000);
const SYNC_PEERS = Number(process.env.BENCH_SYNC_PEERS ?? 3);
/** Which parts to run: `network` (1–3), `sync` (4), or both (default). */
const PARTS = (process.env.BENCH_PARTS ?? 'network,sync').split(',');
const MIN_PEERS = 8;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json() as { result?: any; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 120_000, everyMs = 10) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(everyMs);
  }
};

/** A node process (as `npm start` runs it) on `dataDir`, free ports. */
const nodeProcess = (dataDir: string, args: string[]) => startNodeProcess(['--data-dir', dataDir, '--rpc-port', '0', '--p2p-port', '0', '--quiet', ...args]);
const stopProcess = (child: ChildProcess) => new Promise<void>((resolve) => { if (child.exitCode !== null) return resolve(); child.once('exit', () => resolve()); child.kill('SIGTERM'); });
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

interface Member { readonly i: number; readonly dir: string; proc?: NodeProcess; ws?: WebSocket; readonly heads: Map<string, number> }

async function network() {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const members: Member[] = Array.from({ length: NODES }, (_, i) => ({ i, dir: mkdtempSync(join(tmpdir(), 'mmnode-bench-net-')), heads: new Map() }));
  let bootnode = '';
  const url = (m: Member) => m.proc!.ready.rpcUrl;
  async function launch(m: Member) {
    m.proc = await startNodeProcess([
      '--quiet', '--no-mining', '--data-dir', m.dir, '--rpc-port', '0', '--p2p-host', `127.0.0.${m.i + 2}`, '--p2p-port', String(port),
      '--min-peers', String(MIN_PEERS), ...(m.i === 0 ? [] : ['--bootnodes', bootnode]),
    ]);
    // newHeads over WebSocket: the moment each node imports a block as its head.
    m.ws = new WebSocket(url(m).replace('http', 'ws'));
    await new Promise((resolve, reject) => { m.ws!.once('open', resolve); m.ws!.once('error', reject); });
    m.ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.method === 'eth_subscription') m.heads.set(msg.params.result.hash, performance.now());
    });
    m.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
  }
  function kill(m: Member) {
    m.ws?.terminate();
    m.proc!.child.kill('SIGKILL');
    m.proc = undefined;
  }
  const running = () => members.filter((m) => m.proc);
  const peers = async (m: Member) => Number(await rpc(url(m), 'net_peerCount'));
  /** Mines on `m` and waits for every running node to import the block; the slowest node's delay. */
  async function mineOn(m: Member): Promise<number> {
    const before = await rpc(url(m), 'eth_getBlockByNumber', ['latest', false]);
    await rpc(url(m), 'evm_mine');
    let hash = '';
    await until(async () => { hash = (await rpc(url(m), 'eth_getBlockByNumber', ['latest', false])).hash; return hash !== before.hash && m.heads.has(hash); }, 'the mined block');
    await until(async () => running().every((o) => o.heads.has(hash)), `block ${hash} everywhere`, 30_000);
    const t0 = m.heads.get(hash)!;
    return Math.max(...running().map((o) => o.heads.get(hash)! - t0));
  }

  try {
    const t0 = performance.now();
    await launch(members[0]!);
    bootnode = members[0]!.proc!.ready.multiaddrs[0]!;
    for (const m of members.slice(1)) await launch(m);
    const started = performance.now();
    await until(async () => (await Promise.all(members.map(peers))).every((n) => n >= MIN_PEERS), 'every node at its minimum of peers', 120_000, 200);
    const meshed = performance.now();
    const peerCounts = await Promise.all(members.map(peers));

    // Uncounted warm-up: every process compiles its import path on its first blocks.
    for (let b = 0; b < 10; b++) await mineOn(members[b % NODES]!);
    const delays: number[] = [];
    for (let b = 0; b < BLOCKS; b++) delays.push(await mineOn(members[Math.floor(Math.random() * NODES)]!));
    const rss = members.map((m) => rssMb(m.proc!.child.pid!));

    const victims = [...members].sort(() => Math.random() - 0.5).slice(0, Math.floor(NODES / 3));
    for (const v of victims) kill(v);
    const survivors = running();
    for (let b = 0; b < 5; b++) await mineOn(survivors[b % survivors.length]!);
    const restartAt = performance.now();
    await Promise.all(victims.map(launch));
    const restarted = performance.now();
    await until(async () => {
      const heads = await Promise.all(members.map(async (m) => (await rpc(url(m), 'eth_getBlockByNumber', ['latest', false])).hash));
      return heads.every((h) => h === heads[0]);
    }, 'every head agreeing after the restarts', 120_000, 100);
    const healed = performance.now();
    return {
      startSeconds: (started - t0) / 1000, meshSeconds: (meshed - t0) / 1000, afterLastStart: (meshed - started) / 1000,
      peersMin: Math.min(...peerCounts), peersMax: Math.max(...peerCounts),
      p50: percentile(delays, 50), p99: percentile(delays, 99), max: Math.max(...delays),
      rssMean: rss.reduce((a, b) => a + b, 0) / rss.length, rssMax: Math.max(...rss),
      victims: victims.length, healSeconds: (healed - restartAt) / 1000, startupSeconds: (restarted - restartAt) / 1000,
    };
  } finally {
    for (const m of members) {
      if (m.proc) kill(m);
      rmSync(m.dir, { recursive: true, force: true });
    }
  }
}

/** The chain is built in-process, then served by one node process to a late joiner in another (as on two machines). */
async function sync() {
  const net = await startTestnet({ nodes: 1, miners: [0] });
  const source = net.nodes[0]!;
  const wallet = new ethers.Wallet('0xc1783a9a8222e47778911c58bb5aac1343eb425159ff140799e0a283bfb8fa16');
  const t0 = performance.now();
  for (let nonce = 0; nonce < SYNC_BLOCKS; nonce++) {
    const raw = await wallet.signTransaction({ to: '0x09a1eda29f664ac8f68106f6567276df0c65d859', value: 1n, nonce, gasLimit: 21_000, gasPrice: 0, chainId: 33 });
    const hash = await rpc(source.url, 'eth_sendRawTransaction', [raw]);
    await until(async () => (await rpc(source.url, 'eth_getTransactionReceipt', [hash])) !== null, 'receipt');
  }
  const height = Number(await rpc(source.url, 'eth_blockNumber'));
  const built = (performance.now() - t0) / 1000;
  const chainDir = mkdtempSync(join(tmpdir(), 'mmnode-bench-sync-'));
  const joinerDir = mkdtempSync(join(tmpdir(), 'mmnode-bench-join-'));
  cpSync(source.config.dataDir, chainDir, { recursive: true });
  await net.stop();
  rmSync(join(chainDir, 'p2p-key'), { force: true });
  // Several peers serve the same chain (copies of one data dir, each with its own identity). They are a
  // network the joiner joins, as a late joiner finds one: the first is the others' bootnode, and the joiner
  // starts once they are connected to each other.
  const servers: { dir: string; proc: NodeProcess }[] = [];
  for (let i = 0; i < SYNC_PEERS; i++) {
    const dir = `${chainDir}-${i}`;
    cpSync(chainDir, dir, { recursive: true });
    const boot = i === 0 ? [] : ['--bootnodes', servers[0]!.proc.ready.multiaddrs[0]!];
    servers.push({ dir, proc: await nodeProcess(dir, ['--no-mining', ...boot]) });
  }
  try {
    await until(async () => (await Promise.all(servers.map((s) => rpc(s.proc.ready.rpcUrl, 'net_peerCount')))).every((n) => Number(n) >= SYNC_PEERS - 1), 'serving peers connected');
    const late = await nodeProcess(joinerDir, ['--no-mining', '--bootnodes', servers.map((s) => s.proc.ready.multiaddrs[0]!).join(',')]);
    const readyAt = performance.now();
    const pid = late.child.pid!;
    // The main thread (its id is the process id) runs the import: on a busy machine its CPU time per block says more than the rate.
    const [cpu0, main0] = [cpuMs(pid), cpuMs(pid, pid)];
    try {
      let first = 0;
      await until(async () => {
        const n = Number(await rpc(late.ready.rpcUrl, 'eth_blockNumber'));
        if (n > 0 && !first) first = performance.now();
        return n >= height;
      }, 'late joiner synced', 600_000);
      const seconds = (performance.now() - readyAt) / 1000;
      const cpuPerBlock = (cpuMs(pid) - cpu0) / height;
      const mainPerBlock = (cpuMs(pid, pid) - main0) / height;
      return { height, seconds, rate: height / seconds, built, connectSeconds: (first - readyAt) / 1000, cpuPerBlock, mainPerBlock };
    } finally {
      await stopProcess(late.child);
    }
  } finally {
    for (const s of servers) {
      await stopProcess(s.proc.child);
      rmSync(s.dir, { recursive: true, force: true });
    }
    rmSync(chainDir, { recursive: true, force: true });
    rmSync(joinerDir, { recursive: true, force: true });
  }
}

console.log(`command: npm run bench:network (BENCH_NODES=${NODES}, BENCH_PROPAGATION_BLOCKS=${BLOCKS}, BENCH_SYNC_BLOCKS=${SYNC_BLOCKS})`);
if (PARTS.includes('network')) {
  const n = await network();
  console.log(`${NODES} nodes, node 0 the only bootnode: all started after ${n.startSeconds.toFixed(1)} s, every one at ≥ ${MIN_PEERS} peers after ${n.meshSeconds.toFixed(1)} s (${n.afterLastStart.toFixed(1)} s after the last start); peers per node ${n.peersMin}–${n.peersMax}`);
  console.log(`propagation to all ${NODES}, ${BLOCKS} blocks mined on random nodes: p50 ${n.p50.toFixed(1)} ms, p99 ${n.p99.toFixed(1)} ms, max ${n.max.toFixed(1)} ms  (goal p99 ≤ 200 ms: ${n.p99 <= 200 ? 'PASS' : 'MISS'})`);
  console.log(`resident memory per node: mean ${n.rssMean.toFixed(0)} MB, max ${n.rssMax.toFixed(0)} MB`);
  console.log(`${n.victims} nodes killed (-9) at random, 5 blocks mined meanwhile, restarted: every head agrees ${n.healSeconds.toFixed(1)} s after the restart, ${(n.healSeconds - n.startupSeconds).toFixed(1)} s after the last of them was up (starting them took ${n.startupSeconds.toFixed(1)} s)  (goal ≤ 10 s: ${n.healSeconds <= 10 ? 'PASS' : 'MISS'})`);
}
if (PARTS.includes('sync')) {
  const s = await sync();
  console.log(`sync of a late joiner from ${SYNC_PEERS} connected peers (each its own process): ${s.height} blocks with a transaction each in ${s.seconds.toFixed(2)} s from its start = ${s.rate.toFixed(0)} blocks/s, the first block after ${s.connectSeconds.toFixed(2)} s  (goal ≥ 1,500: ${s.rate >= 1500 ? 'PASS' : 'MISS'}; building them took ${s.built.toFixed(1)} s)`);
  console.log(`the joiner's CPU per block: ${s.cpuPerBlock.toFixed(2)} ms, ${s.mainPerBlock.toFixed(2)} ms of it on its main thread; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}
process.exit(0);

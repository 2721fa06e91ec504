/**
 * `npx tsx bench/network.ts`: block propagation over a 4-node testnet (from a block's import on the
 * miner to its import on every other node, p50/p99) and the sync rate of a late joiner (blocks/s
 * over 5,000 blocks that each hold a transaction). Targets (issue 5): p99 ≤ 100 ms, sync ≥ 1,000 blocks/s.
 * Propagation: four in-process nodes on loopback (real libp2p over TCP between them). Sync: a node
 * process serving the chain and a late joiner in another process.
 */
import { bytesToHex } from '@ethereumjs/util';
import { ethers } from 'ethers';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeEvent } from '../src/actors/events.ts';
import { spawn } from '../src/actors/kernel/index.ts';
import type { RunningNode } from '../src/node.ts';
import { startTestnet } from '../testnet/harness.ts';
import { startNodeProcess } from '../testnet/launch.ts';

const BLOCKS = Number(process.env.BENCH_PROPAGATION_BLOCKS ?? 200);
const SYNC_BLOCKS = Number(process.env.BENCH_SYNC_BLOCKS ?? 5_000);

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** Calls `onImport(hash, ms)` for every block a node imports, via an observer actor on its bus. */
function observe(node: RunningNode, onImport: (hash: string, atMs: number) => void) {
  type P = { tell: NodeEvent; ask: Record<string, never> };
  const actor = spawn<P, null>('observer', {
    init: () => null,
    onTell: (s, e) => { if (e.type === 'chain.blockImported') onImport(bytesToHex(e.block.hash), performance.now()); return s; },
    onAsk: {},
  });
  node.events.subscribe(actor.ref, (e) => (e.type === 'chain.blockImported' ? e : undefined));
  return actor;
}

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json() as { result?: any; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

async function propagation() {
  const net = await startTestnet({ nodes: 4, miners: [] });
  const [miner, ...others] = net.nodes;
  await until(async () => (await rpc(others[2]!.url, 'net_peerCount')) === '0x3', 'full mesh');
  const imported = net.nodes.map(() => new Map<string, number>());
  const observers = net.nodes.map((n, i) => observe(n.node, (hash, at) => imported[i]!.set(hash, at)));
  const delays: number[] = [];
  for (let i = 0; i < BLOCKS; i++) {
    const before = Number(await rpc(miner!.url, 'eth_blockNumber'));
    await rpc(miner!.url, 'evm_mine').catch(() => mineThroughWork(miner!.url));
    await until(async () => {
      const hash = (await rpc(others[2]!.url, 'eth_getBlockByNumber', [`0x${(before + 1).toString(16)}`, false]))?.hash;
      return hash !== undefined && others.every((_, k) => imported[k + 1]!.has(hash));
    }, `block ${before + 1} everywhere`, 10_000);
    const hash = (await rpc(miner!.url, 'eth_getBlockByNumber', [`0x${(before + 1).toString(16)}`, false])).hash as string;
    const t0 = imported[0]!.get(hash)!;
    delays.push(Math.max(...others.map((_, k) => imported[k + 1]!.get(hash)! - t0)));
  }
  for (const o of observers) await o.stop();
  await net.stop();
  return { p50: percentile(delays, 50), p99: percentile(delays, 99), max: Math.max(...delays) };
}

/** Mines one block through mnr_getWork / mnr_submitBitcoinBlock when evm_mine is not available. */
async function mineThroughWork(url: string) {
  const { buildTaggedCoinbase, merkleRoot, parentTxid, parseParentTx, serializeParentBlock, solveParentHeader } = await import('../src/mergedmining/index.ts');
  const work = await rpc(url, 'mnr_getWork');
  const coinbase = buildTaggedCoinbase(Buffer.from(work.blockHashForMergedMining.slice(2), 'hex'));
  const txids = [parentTxid(coinbase)];
  const header = solveParentHeader({ version: 0x20000000, prevHash: new Uint8Array(32), merkleRoot: merkleRoot(txids), time: Math.floor(Date.now() / 1000), bits: 0x207fffff, nonce: 0 }, BigInt(work.target))!;
  await rpc(url, 'mnr_submitBitcoinBlock', [Buffer.from(serializeParentBlock({ header, txs: [parseParentTx(coinbase).tx] })).toString('hex')]);
}

/** A node process (as `npm start` runs it) on `dataDir`, free ports. */
const nodeProcess = (dataDir: string, args: string[]) => startNodeProcess(['--data-dir', dataDir, '--rpc-port', '0', '--p2p-port', '0', '--quiet', ...args]);

const stopProcess = (child: ChildProcess) => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); });

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
  const server = await nodeProcess(chainDir, ['--no-mining']);
  try {
    const late = await nodeProcess(joinerDir, ['--no-mining', '--bootnodes', server.ready.multiaddrs[0]!]);
    const readyAt = performance.now();
    try {
      let first = 0;
      await until(async () => {
        const n = Number(await rpc(late.ready.rpcUrl, 'eth_blockNumber'));
        if (n > 0 && !first) first = performance.now();
        return n >= height;
      }, 'late joiner synced', 600_000);
      const seconds = (performance.now() - readyAt) / 1000;
      return { height, seconds, rate: height / seconds, built, connectSeconds: (first - readyAt) / 1000 };
    } finally {
      await stopProcess(late.child);
    }
  } finally {
    await stopProcess(server.child);
    rmSync(chainDir, { recursive: true, force: true });
    rmSync(joinerDir, { recursive: true, force: true });
  }
}

console.log(`command: npx tsx bench/network.ts (BENCH_PROPAGATION_BLOCKS=${BLOCKS}, BENCH_SYNC_BLOCKS=${SYNC_BLOCKS})`);
const p = await propagation();
console.log(`propagation over 4 nodes, ${BLOCKS} blocks: p50 ${p.p50.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms, max ${p.max.toFixed(1)} ms  (target p99 ≤ 100 ms: ${p.p99 <= 100 ? 'PASS' : 'MISS'})`);
const s = await sync();
console.log(`sync of a late joiner (its own process): ${s.height} blocks with a transaction each in ${s.seconds.toFixed(2)} s from its start = ${s.rate.toFixed(0)} blocks/s, the first block after ${s.connectSeconds.toFixed(2)} s  (target ≥ 1000: ${s.rate >= 1000 ? 'PASS' : 'MISS'}; building them took ${s.built.toFixed(1)} s)`);
process.exit(0);

/**
 * `npx tsx bench/mining.ts`: merged-mining submissions against a node with its built-in client off.
 * (1) From sending mnr_submitBitcoinBlock to the new block being visible over RPC, p50/p99.
 * (2) Submissions handled per second: solved blocks submitted back to back (getWork, solve, submit),
 *     and refused ones (stale work) at concurrency 16.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NETWORKS } from '../src/chain/execution/networks.ts';
import {
  buildTaggedCoinbase, merkleRoot, parentTxid, parseParentTx, serializeParentBlock, solveParentHeader,
} from '../src/mergedmining/index.ts';
import { startNode } from '../src/node.ts';

const BLOCKS = Number(process.env.BENCH_MINING_BLOCKS ?? 300);
const REFUSALS_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: any; error?: { code: number; message: string } };
}
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** A solved one-transaction parent block for the work, as hex for mnr_submitBitcoinBlock. */
function solve(work: { blockHashForMergedMining: string; target: string }): string {
  const coinbase = buildTaggedCoinbase(Buffer.from(work.blockHashForMergedMining.slice(2), 'hex'));
  const txids = [parentTxid(coinbase)];
  const header = solveParentHeader({ version: 0x20000000, prevHash: new Uint8Array(32), merkleRoot: merkleRoot(txids), time: Math.floor(Date.now() / 1000), bits: 0x207fffff, nonce: 0 }, BigInt(work.target))!;
  return Buffer.from(serializeParentBlock({ header, txs: [parseParentTx(coinbase).tx] })).toString('hex');
}

const dataDir = mkdtempSync(join(tmpdir(), 'mmnode-bench-mining-'));
const node = await startNode({
  network: 'regtest', dataDir, rpcHost: '127.0.0.1', rpcPort: 0, mining: 'off', blockTimeMs: 0, coinbase: NETWORKS.regtest.defaultCoinbase,
  minGasPrice: 0n, quiet: true, p2p: { host: '127.0.0.1', port: 0, announce: [], bootnodes: [], minPeers: 8, maxPeers: 8, punishmentMs: 720_000 },
});
const url = node.rpcUrl;
try {
  const latencies: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < BLOCKS; i++) {
    const work = (await rpc(url, 'mnr_getWork')).result;
    const block = solve(work);
    const sent = performance.now();
    const info = (await rpc(url, 'mnr_submitBitcoinBlock', [block])).result;
    // visible: the new head answers over RPC
    while ((await rpc(url, 'eth_getBlockByNumber', ['latest', false])).result.hash !== info.blockHash) { /* poll */ }
    latencies.push(performance.now() - sent);
  }
  const perSecond = BLOCKS / ((performance.now() - t0) / 1000);

  // Refusals: a solution for work that was never handed out, at concurrency 16.
  const stale = solve({ blockHashForMergedMining: `0x${'ab'.repeat(32)}`, target: `0x${'55'.repeat(32)}` });
  let refused = 0;
  const end = performance.now() + REFUSALS_SECONDS * 1000;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (performance.now() < end) if ((await rpc(url, 'mnr_submitBitcoinBlock', [stale])).error?.code === -33000) refused++;
  }));

  console.log('command: npx tsx bench/mining.ts');
  console.log(`submission → block visible over RPC (${BLOCKS} blocks): p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`);
  console.log(`blocks mined back to back (getWork + solve + submit + visible): ${perSecond.toFixed(0)}/s`);
  console.log(`refused submissions (unknown work, concurrency 16): ${(refused / REFUSALS_SECONDS).toFixed(0)}/s`);
} finally {
  await node.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

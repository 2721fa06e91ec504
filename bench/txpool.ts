/**
 * `npx tsx bench/txpool.ts` (or `npm run bench:txpool`): the transaction pool under load
 * part 7. A measurement, not a test: it prints figures and exits 0.
 *
 *   1. Pool admission: 10,000 signed transfers from 100 senders (100 nonces each) through the pool
 *      actor's validation into pending, signature recovery included: transactions per second.
 *   2. The same 10,000 end to end over JSON-RPC (eth_sendRawTransaction in batches of 50, 4 in
 *      flight): decoding, recovery, the pool, the HTTP round trips.
 *   3. txpool_content with those 10,000 pending: latency of 20 calls and the response size.
 *
 * A regtest node runs in this process with mining stopped once the senders are funded (one block),
 * and a per-sender slot limit that lets each sender queue 100 nonces.
 */
import { createLegacyTx, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createEventBus } from '../src/actors/kernel/index.ts';
import type { NodeEvent } from '../src/actors/events.ts';
import { DEFAULT_TXPOOL_OPTIONS, spawnTxPool } from '../src/actors/txpool/index.ts';
import { keccak256 } from '../src/chain/codec/bytes.ts';
import { NETWORKS } from '../src/chain/execution/networks.ts';
import { startNode } from '../src/node.ts';
import { testConfig } from '../test/helpers/node.ts';

const SENDERS = 100;
const PER_SENDER = 100;
const TOTAL = SENDERS * PER_SENDER;
const RPC_BATCH = 50;
const RPC_IN_FLIGHT = 4;
const CONTENT_CALLS = 20;
const TO = new Uint8Array(20).fill(0x42);

const log = (msg: string) => console.error(`[bench:txpool] ${msg}`);
const network = NETWORKS.regtest;
const dataDir = mkdtempSync(join(tmpdir(), 'mmnode-bench-txpool-'));
// An in-process regtest node on free ports, as the tests start them.
const node = await startNode(testConfig({ dataDir, txpool: { accountSlots: PER_SENDER + 1, maxTxs: 2 * TOTAL } }));

let id = 0;
async function rpc(body: unknown): Promise<any> {
  const res = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}
async function call(method: string, params: unknown[] = []): Promise<any> {
  const r = await rpc({ jsonrpc: '2.0', id: ++id, method, params });
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

try {
  // ---- setup: 100 funded senders (one block), then mining stops ------------------------------------
  const keys = Array.from({ length: SENDERS }, (_, i) => keccak256(new TextEncoder().encode(`mmnode bench sender ${i}`)));
  const funder = network.devAccounts[0]!;
  for (const [i, key] of keys.entries()) {
    await call('eth_sendTransaction', [{ from: bytesToHex(funder.address), to: bytesToHex(privateToAddress(key)), value: '0xde0b6b3a7640000', nonce: `0x${i.toString(16)}` }]);
  }
  const last = bytesToHex(privateToAddress(keys.at(-1)!));
  for (let t = Date.now(); (await call('eth_getBalance', [last, 'latest'])) === '0x0';) {
    if (Date.now() - t > 60_000) throw new Error('funding was not mined within 60 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  await call('evm_stopMining');

  log(`signing ${TOTAL} transfers (${SENDERS} senders × ${PER_SENDER} nonces)`);
  const common = node.reader.common;
  /** Two sets with different values, so the second run's transactions are new to the node's pool. */
  const sign = (value: bigint) => keys.flatMap((key) => Array.from({ length: PER_SENDER }, (_, n) =>
    createLegacyTx({ nonce: BigInt(n), to: TO, value, gasLimit: 21_000n, gasPrice: 0n }, { common }).sign(key).serialize()));
  const forPool = sign(1n);
  const forRpc = sign(2n);
  // Interleave senders (nonce 0 of every sender, then nonce 1, …) as traffic from many wallets would arrive.
  const interleave = <T>(xs: T[]) => Array.from({ length: TOTAL }, (_, i) => xs[(i % SENDERS) * PER_SENDER + Math.floor(i / SENDERS)]!);

  // ---- 1. the pool actor alone ---------------------------------------------------------------------
  const pool = spawnTxPool(node.reader, createEventBus<NodeEvent>(), { ...DEFAULT_TXPOOL_OPTIONS, accountSlots: PER_SENDER + 1, maxTxs: 2 * TOTAL });
  await pool.ready;
  // Decoded but not recovered: the pool's sender recovery is part of what is measured.
  const decoded: TypedTransaction[] = interleave(forPool).map((raw) => createTxFromRLP(raw, { common }));
  let t0 = performance.now();
  const results = await Promise.all(decoded.map((tx) => pool.ref.ask('tx.submit', { tx }, 120_000)));
  const poolMs = performance.now() - t0;
  const pendingInPool = results.filter((r) => r.pending).length;
  await pool.stop();

  // ---- 2. JSON-RPC end to end ----------------------------------------------------------------------
  const raws = interleave(forRpc).map((raw) => bytesToHex(raw));
  const batches: string[][] = [];
  for (let i = 0; i < raws.length; i += RPC_BATCH) batches.push(raws.slice(i, i + RPC_BATCH));
  let next = 0;
  let refused = 0;
  t0 = performance.now();
  await Promise.all(Array.from({ length: RPC_IN_FLIGHT }, async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      const replies = await rpc(batch.map((raw) => ({ jsonrpc: '2.0', id: ++id, method: 'eth_sendRawTransaction', params: [raw] })));
      refused += (replies as { error?: unknown }[]).filter((r) => r.error).length;
    }
  }));
  const rpcMs = performance.now() - t0;
  const status = await call('txpool_status');

  // ---- 3. txpool_content with 10,000 pending -------------------------------------------------------
  await call('txpool_content'); // warm-up
  const latencies: number[] = [];
  let bytes = 0;
  for (let i = 0; i < CONTENT_CALLS; i++) {
    t0 = performance.now();
    const res = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'txpool_content', params: [] }) });
    bytes = (await res.text()).length;
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);

  const rate = (ms: number) => Math.round(TOTAL / (ms / 1000)).toLocaleString('en-US');
  console.log(`\ntxpool benchmark — ${cpus().length} × ${cpus()[0]?.model.trim()}, load ${loadavg()[0]!.toFixed(2)}, Node ${process.version}`);
  console.log(`  pool admission (actor, ${TOTAL.toLocaleString('en-US')} txs / ${SENDERS} senders): ${rate(poolMs)} tx/s  (${poolMs.toFixed(0)} ms, ${pendingInPool} pending)`);
  console.log(`  JSON-RPC admission (eth_sendRawTransaction, batches of ${RPC_BATCH}): ${rate(rpcMs)} tx/s  (${rpcMs.toFixed(0)} ms, ${refused} refused)`);
  console.log(`  txpool_status after: ${JSON.stringify(status)}`);
  console.log(`  txpool_content with ${status.pending.toLocaleString('en-US')} pending: median ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, min ${latencies[0]!.toFixed(0)} ms (${(bytes / 1e6).toFixed(1)} MB, ${CONTENT_CALLS} calls)`);
} finally {
  await node.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

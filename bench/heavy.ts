/**
 * Heavy requests on mmnode (docs/rpc-workers.md), part of `npm run bench:peers`:
 *   - latency of eth_blockNumber, asked one after the other, while 50 eth_calls of 50M gas and 20
 *     default (struct-log) traces of a 9.2M-gas transaction run;
 *   - resident memory before and after 2,000 trace_filter calls over 17 blocks of one transfer each, and
 *     after the storm, and once the workers beyond the one a development node keeps have retired;
 *   - ERC-20 balanceOf eth_call throughput with 1, 2 and 4 workers (runCallsWithWorkers).
 */
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import type { LoadResult } from './load.ts';
import { post, rpc } from './load.ts';
import { startPeer, type Peer, type PeerOptions } from './peers.ts';
import { WORKER_IDLE_MS } from '../src/rpc/workers/options.ts';
import { READ_WORKLOADS, runRead, SENDER_KEYS, SENDERS, setupPeer, signed, signLegacy, waitForReceipts, type Hex } from './workloads.ts';

/** Loops while more than 10,000 gas is left: JUMPDEST GAS PUSH2 10000 LT ISZERO PUSH1 13 JUMPI PUSH1 0 JUMP JUMPDEST STOP. */
const BURNER_RUNTIME = '5b5a6127101015600d576000565b00';
/** Copies the 15-byte runtime from offset 12 of the init code and returns it. */
const BURNER_INIT = `0x600f600c600039600f6000f3${BURNER_RUNTIME}` as Hex;
const BURN_GAS = 9_200_000n;
export const STORM = { calls: 50, callGas: 50_000_000, traces: 20 } as const;
export const TRACE_FILTER = { calls: 2_000, warmup: 200, blocks: 17, concurrency: 4 } as const;

export interface HeavyResult {
  /** eth_blockNumber latencies (ms) during the storm. */
  readonly probe: { readonly count: number; readonly p50Ms: number; readonly p99Ms: number; readonly maxMs: number };
  /** How the storm's requests ended: answered, -32005 (deadline or full queue), a streamed trace cut at its deadline, something else. */
  readonly storm: {
    readonly ok: number; readonly limited: number; readonly cut: number; readonly other: number; readonly seconds: number; readonly firstLimit?: string;
  };
  /** Resident memory after the storm, and once the workers beyond the kept one have retired (WORKER_IDLE_MS without requests). */
  readonly rest: { readonly afterStormMb: number; readonly retiredMb: number };
  readonly traceFilter: { readonly beforeMb: number; readonly afterMb: number; readonly seconds: number; readonly errors: number };
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Sends `key`'s next transaction and waits for its receipt. */
async function mine(url: string, key: Uint8Array, fields: { to?: Hex; data?: Hex; value?: bigint; gasLimit: bigint }) {
  const from = bytesToHex(privateToAddress(key)) as Hex;
  const nonce = BigInt(await rpc<string>(url, 'eth_getTransactionCount', [from, 'latest']));
  const tx = signed(signLegacy(key, { nonce, ...fields }), nonce);
  await rpc(url, 'eth_sendRawTransaction', [tx.raw]);
  const [receipt] = await waitForReceipts(url, [tx.hash], 60_000);
  if (receipt.status !== '0x1') throw new Error(`transaction ${tx.hash} failed: ${JSON.stringify(receipt)}`);
  return receipt;
}

/**
 * One storm request, its answer read as it comes and not kept (a default trace of the burner streams
 * about 200 MB): answered, -32005, cut (a streamed trace past its deadline), or something else.
 */
async function stormRequest(url: string, method: string, params: unknown[]): Promise<{ ok: boolean; limit?: string; cut?: boolean; other?: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  let head = '';
  try {
    for await (const chunk of res.body!) if (head.length < 4096) head += Buffer.from(chunk).toString();
  } catch {
    return { ok: false, cut: true };
  }
  if (head.startsWith('{"jsonrpc":"2.0","id":1,"result"')) return { ok: true };
  const json = JSON.parse(head);
  return json.error.code === -32005 ? { ok: false, limit: json.error.message } : { ok: false, other: `${json.error.code} ${json.error.message}` };
}

export async function runHeavy(opts: PeerOptions, log: (msg: string) => void): Promise<HeavyResult & { command: string }> {
  const peer = await startPeer('mmnode', opts);
  try {
    const url = peer.url;
    // 17 blocks of one transfer each (automine: one block per transaction sent alone), for trace_filter.
    log(`mmnode: ${TRACE_FILTER.blocks} blocks of one transfer`);
    const first = Number(await rpc(url, 'eth_blockNumber')) + 1;
    for (let i = 0; i < TRACE_FILTER.blocks; i++) await mine(url, SENDER_KEYS[0]!, { to: SENDERS[1]!, value: 1n, gasLimit: 21_000n });
    const range = { fromBlock: `0x${first.toString(16)}`, toBlock: `0x${(first + TRACE_FILTER.blocks - 1).toString(16)}` };
    let errors = 0;
    const traceFilters = (calls: number) => {
      let next = 0;
      return Promise.all(Array.from({ length: TRACE_FILTER.concurrency }, async () => {
        while (next++ < calls) {
          const json = JSON.parse(await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'trace_filter', params: [range] })));
          if (json.error || json.result.length !== TRACE_FILTER.blocks) errors++;
        }
      }));
    };
    // The warm-up starts the workers and fills the caches they keep by design (blocks, trie nodes, compiled code).
    await traceFilters(TRACE_FILTER.warmup);
    const beforeMb = peer.memory().rssMb;
    log(`mmnode: ${TRACE_FILTER.calls} trace_filter calls over ${TRACE_FILTER.blocks} blocks`);
    const t0 = performance.now();
    await traceFilters(TRACE_FILTER.calls);
    const traceFilter = { beforeMb, afterMb: peer.memory().rssMb, seconds: (performance.now() - t0) / 1000, errors };

    log(`mmnode: a transaction burning ${BURN_GAS} gas`);
    const burner = (await mine(url, SENDER_KEYS[0]!, { data: BURNER_INIT, gasLimit: 100_000n })).contractAddress as Hex;
    const burn = await mine(url, SENDER_KEYS[0]!, { to: burner, gasLimit: BURN_GAS });
    log(`mmnode: ${STORM.calls} eth_calls of ${STORM.callGas} gas and ${STORM.traces} traces of it (used ${BigInt(burn.gasUsed)} gas), probing eth_blockNumber`);
    const s0 = performance.now();
    const storm = [
      ...Array.from({ length: STORM.calls }, () => stormRequest(url, 'eth_call', [{ to: burner, gas: `0x${STORM.callGas.toString(16)}` }, 'latest'])),
      ...Array.from({ length: STORM.traces }, () => stormRequest(url, 'debug_traceTransaction', [burn.transactionHash])),
    ];
    let done = false;
    const settled = Promise.all(storm).finally(() => { done = true; });
    const latencies: number[] = [];
    while (!done) {
      const p0 = performance.now();
      await rpc(url, 'eth_blockNumber');
      latencies.push(performance.now() - p0);
    }
    const outcomes = await settled;
    const seconds = (performance.now() - s0) / 1000;
    latencies.sort((a, b) => a - b);
    const afterStormMb = peer.memory().rssMb;
    log(`mmnode: ${(WORKER_IDLE_MS + 5_000) / 1000} s without requests, for the workers beyond the kept one to retire`);
    await new Promise((r) => setTimeout(r, WORKER_IDLE_MS + 5_000));
    const rest = { afterStormMb, retiredMb: peer.memory().rssMb };
    return {
      command: peer.command,
      probe: { count: latencies.length, p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99), maxMs: latencies.at(-1) ?? NaN },
      storm: {
        ok: outcomes.filter((o) => o.ok).length, limited: outcomes.filter((o) => o.limit).length, cut: outcomes.filter((o) => o.cut).length,
        other: outcomes.filter((o) => o.other).length,
        seconds, firstLimit: outcomes.find((o) => o.limit)?.limit ?? outcomes.find((o) => o.other)?.other,
      },
      traceFilter,
      rest,
    };
  } finally {
    await peer.stop();
  }
}

/** ERC-20 balanceOf eth_call throughput of a fresh mmnode with `workers` RPC workers, as the reads of run.ts measure it. */
export async function runCallsWithWorkers(opts: PeerOptions, workers: number, seconds: number, concurrency: number): Promise<LoadResult> {
  const peer: Peer = await startPeer('mmnode', { ...opts, mmnodeArgs: ['--rpc-workers', String(workers)] });
  try {
    const { token } = await setupPeer(peer.url);
    const call = READ_WORKLOADS.find((w) => w.key === 'call')!;
    await runRead(peer.url, call, token, Math.min(1, seconds / 4), concurrency); // warm-up, not counted
    return await runRead(peer.url, call, token, seconds, concurrency);
  } finally {
    await peer.stop();
  }
}

/**
 * The node's Prometheus metrics (docs/operations.md "Metrics"), all named mmnode_…, in a registry of
 * the node's own (several nodes may run in one process, as in the tests). Gauges read their value
 * when scraped; counters and histograms are fed by the RPC dispatcher and the chain actor.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StatusSources } from './status.ts';

export class NodeMetrics {
  readonly registry = new Registry();
  readonly #rpcSeconds: Histogram<'method' | 'outcome'>;
  readonly #importSeconds: Histogram;
  readonly #imported: Counter<'kind'>;

  constructor(sources: StatusSources) {
    const registers = [this.registry];
    // Process CPU, memory, file descriptors, GC, and event-loop lag (mmnode_nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: this.registry, prefix: 'mmnode_' });
    const gauge = (name: string, help: string, read: () => Promise<number> | number) =>
      new Gauge({ name, help, registers, async collect() { this.set(await read()); } });
    const { reader } = sources;
    gauge('mmnode_head_number', 'Number of the best block', () => Number(reader.head().number));
    gauge('mmnode_head_total_difficulty', 'Total difficulty of the best chain', () => Number(reader.head().totalDifficulty));
    gauge('mmnode_head_timestamp_seconds', 'Timestamp of the best block', () => Number(reader.head().header.timestamp));
    gauge('mmnode_peers', 'Connected peers', async () => (await sources.peers.ask('peers.list', {})).length);
    new Gauge({
      name: 'mmnode_txpool_transactions', help: 'Transactions in the pool: pending (executable next) or queued (waiting for a nonce gap)', labelNames: ['state'], registers,
      async collect() {
        const { pending, queued } = await sources.txpool.ask('pool.list', {});
        this.set({ state: 'pending' }, pending.length);
        this.set({ state: 'queued' }, queued.length);
      },
    });
    new Gauge({
      name: 'mmnode_rpc_worker_requests', help: 'eth_call, eth_estimateGas and tracing requests: running on a worker thread, or queued for one', labelNames: ['state'], registers,
      collect() {
        const { running, queued } = sources.workers.stats();
        this.set({ state: 'running' }, running);
        this.set({ state: 'queued' }, queued);
      },
    });
    gauge('mmnode_rpc_workers', 'RPC worker threads running', () => sources.workers.stats().workers);
    new Counter({
      name: 'mmnode_rpc_main_thread_calls_total',
      help: 'eth_call and eth_estimateGas run on the main thread while the workers were idle: answered there, or stopped past the budget and handed to a worker',
      labelNames: ['outcome'], registers,
      collect() {
        const { served, stopped } = sources.mainThreadCalls?.stats() ?? { served: 0, stopped: 0 };
        this.reset();
        this.inc({ outcome: 'answered' }, served);
        this.inc({ outcome: 'stopped' }, stopped);
      },
    });
    const sync = async () => sources.sync.ask('sync.report', {});
    gauge('mmnode_sync_current_block', 'While catching up: the block reached (0 when not syncing)', async () => Number((await sync() || undefined)?.currentBlock ?? 0));
    gauge('mmnode_sync_highest_block', 'While catching up: the block synced toward (0 when not syncing)', async () => Number((await sync() || undefined)?.highestBlock ?? 0));
    gauge('mmnode_sync_blocks_per_second', 'While catching up: blocks imported per second over the last 30 s', async () => (await sync() || undefined)?.blocksPerSecond ?? 0);
    this.#rpcSeconds = new Histogram({
      // Its _count is the number of calls: a separate counter would cost every call a second label lookup.
      name: 'mmnode_rpc_request_duration_seconds', help: 'JSON-RPC calls and their latency by method and outcome (ok or error)', labelNames: ['method', 'outcome'], registers,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    });
    this.#importSeconds = new Histogram({
      name: 'mmnode_block_import_duration_seconds', help: 'Time to verify, execute and store one block', registers,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    });
    this.#imported = new Counter({ name: 'mmnode_blocks_imported_total', help: 'Blocks imported: onto the best chain, or as a fork (side branch)', labelNames: ['kind'], registers });
  }

  rpcCall(method: string, outcome: 'ok' | 'error', seconds: number): void {
    this.#rpcSeconds.observe({ method, outcome }, seconds);
  }

  /** `seconds` for `blocks` imported in one run (a sync batch): each is counted with the run's mean. */
  blocksImported(seconds: number, blocks: number): void {
    for (let i = 0; i < blocks; i++) this.#importSeconds.observe(seconds / blocks);
  }

  blockAdded(best: boolean): void {
    this.#imported.inc({ kind: best ? 'best' : 'fork' });
  }
}

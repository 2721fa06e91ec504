/**
 * The monitor actor on fake sources (peers, pool, miner, sync, RPC workers) over a real chain in a
 * temp LevelDB: /metrics reads the sources at each scrape, /status.json shows them with the recent
 * blocks it was told of (forks included), unknown paths are 404, a failing source costs one request,
 * and stopping closes its port. test/e2e/monitor.test.ts runs it inside a node, with the page in a browser.
 */
import { bytesToHex } from '@ethereumjs/util';
import { connect as connectTcp } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BlockSyncProtocol } from '../../src/actors/blockSync/index.ts';
import { describeProgress, type SyncReport } from '../../src/actors/blockSync/progress.ts';
import { ActorStoppedError, type Actor } from '../../src/actors/kernel/index.ts';
import type { MinerProtocol, MiningStatus } from '../../src/actors/miner/protocol.ts';
import type { PeerManagerProtocol, PeerView, ScoringEntry } from '../../src/actors/peerManager/protocol.ts';
import type { PoolTx, TxPoolProtocol } from '../../src/actors/txpool/index.ts';
import type { Block } from '../../src/chain/codec/block.ts';
import { configureLogging } from '../../src/log.ts';
import { spawnMonitor, type MonitorProtocol } from '../../src/monitor/index.ts';
import { NodeMetrics } from '../../src/monitor/metrics.ts';
import type { StatusSources } from '../../src/monitor/status.ts';
import type { RpcWorkerPool } from '../../src/rpc/workers/pool.ts';
import type { MainThreadCalls } from '../../src/rpc/mainThreadCalls.ts';
import { portError } from '../../src/startup.ts';
import { openTestChain, type TestChain } from '../helpers/chain.ts';
import { fakeRef } from '../helpers/fakeRpc.ts';
import { within } from '../helpers/rpc.ts';

configureLogging('fatal'); // the failing source below is logged as a warning: not this test's output

const Monitor = suite('monitor actor');
const PEER_ID = '12D3KooWMonitoredNodeFakePeerId';

/** What the fake sources answer; a test changes it between requests. */
interface World {
  peers: PeerView[];
  scores: ScoringEntry[];
  pool: { pending: number; queued: number };
  mining: MiningStatus;
  sync: SyncReport | false;
  workers: { workers: number; running: number; queued: number };
  mainThreadCalls: { served: number; stopped: number };
  /** Set: the peer manager fails (a node stopping). */
  peersDown: boolean;
}
const idle = (): World => ({
  peers: [], scores: [], pool: { pending: 0, queued: 0 }, mining: { mode: 'off', mining: false, hashrate: 0n, coinbase: new Uint8Array(20) }, sync: false,
  workers: { workers: 2, running: 0, queued: 0 }, mainThreadCalls: { served: 0, stopped: 0 }, peersDown: false,
});
const world = idle();

const sources: StatusSources = {
  reader: undefined as never, // set once the chain is open
  peers: fakeRef<PeerManagerProtocol>('peers', {
    'peers.list': () => { if (world.peersDown) throw new Error('the fake peer manager is stopped'); return world.peers; },
    'sco.peerList': () => world.scores,
  }),
  txpool: fakeRef<TxPoolProtocol>('txpool', {
    'pool.list': () => ({ pending: Array<PoolTx>(world.pool.pending), queued: Array<PoolTx>(world.pool.queued) }),
  }),
  miner: fakeRef<MinerProtocol>('miner', { 'mining.status': () => world.mining }),
  sync: fakeRef<BlockSyncProtocol>('sync', { 'sync.report': () => world.sync }),
  workers: { stats: () => world.workers } as unknown as RpcWorkerPool,
  mainThreadCalls: { stats: () => world.mainThreadCalls } as unknown as MainThreadCalls,
  clientVersion: 'mmnode/test',
  peerId: PEER_ID,
};

let chain: TestChain;
/** blocks[n] is canonical block n. */
const blocks: Block[] = [];
let metrics: NodeMetrics;
let monitor: Actor<MonitorProtocol>;
let base = '';

/** Mines an empty block on the head of the chain (as the chain actor would, without telling the monitor). */
async function extend(): Promise<Block> {
  const block = await chain.emptyChildOf(blocks[blocks.length - 1]!);
  assert.is((await chain.writer.import(block)).result, 'IMPORTED_BEST');
  blocks.push(block);
  return block;
}

Monitor.before(async () => {
  chain = await openTestChain();
  blocks.push((await chain.reader.canonicalBlock(0n))!);
  // More blocks than the page draws (32), so the monitor starts from the newest of them.
  while (blocks.length < 35) await extend();
  Object.assign(sources, { reader: chain.reader });
  metrics = new NodeMetrics(sources);
  monitor = spawnMonitor({ metrics, sources, host: '127.0.0.1', port: 0 });
  await monitor.ready;
  const at = await monitor.ref.ask('monitor.address', {});
  assert.is(at.address, '127.0.0.1');
  base = `http://127.0.0.1:${at.port}`;
  await extend(); // #35, after the start: the gauges read the head when scraped
});
Monitor.before.each(() => { Object.assign(world, idle()); });
Monitor.after(async () => {
  await within(monitor.stop(), 'the monitor stopping').catch(() => {}); // a monitor that cannot stop failed its own test
  await chain.close();
});

/** A sample's value: `name{labels} value`. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const scrape = async () => (await fetch(`${base}/metrics`)).text();
const status = async (): Promise<any> => {
  const res = await fetch(`${base}/status.json`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/json');
  return res.json();
};

const peer = (id: string, port: number, headNumber?: bigint): PeerView => ({
  id, host: '127.0.0.1', port,
  status: headNumber === undefined ? undefined : { chainId: 33n, genesisHash: blocks[0]!.hash, headHash: blocks[0]!.hash, headNumber, totalDifficulty: headNumber + 1n },
} as PeerView);

Monitor('/metrics: the Prometheus text format, every series named mmnode_, the gauges read from the sources at each scrape', async () => {
  world.peers = [peer('a', 1), peer('b', 2)];
  world.pool = { pending: 3, queued: 1 };
  world.workers = { workers: 4, running: 1, queued: 2 };
  world.mainThreadCalls = { served: 7, stopped: 1 };
  const res = await fetch(`${base}/metrics`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const head = blocks[35]!.header;
  assert.equal([
    sample(text, 'mmnode_head_number'), sample(text, 'mmnode_head_total_difficulty'), sample(text, 'mmnode_head_timestamp_seconds'),
  ], [35, 36, Number(head.timestamp)]);
  assert.is(sample(text, 'mmnode_peers'), 2);
  assert.is(sample(text, 'mmnode_txpool_transactions{state="pending"}'), 3);
  assert.is(sample(text, 'mmnode_txpool_transactions{state="queued"}'), 1);
  assert.is(sample(text, 'mmnode_rpc_workers'), 4);
  assert.is(sample(text, 'mmnode_rpc_worker_requests{state="running"}'), 1);
  assert.is(sample(text, 'mmnode_rpc_worker_requests{state="queued"}'), 2);
  assert.is(sample(text, 'mmnode_rpc_main_thread_calls_total{outcome="answered"}'), 7);
  assert.is(sample(text, 'mmnode_rpc_main_thread_calls_total{outcome="stopped"}'), 1);
  assert.equal(['current_block', 'highest_block', 'blocks_per_second'].map((s) => sample(text, `mmnode_sync_${s}`)), [0, 0, 0], 'not syncing');
  assert.ok(sample(text, 'mmnode_nodejs_eventloop_lag_seconds') !== undefined, 'the process metrics are there');
  for (const line of text.split('\n')) if (/^[a-z]/.test(line)) assert.match(line, /^mmnode_/);

  // The sources move on; the next scrape follows them.
  world.peers = [];
  world.pool = { pending: 0, queued: 5 };
  world.sync = { startingBlock: 35n, currentBlock: 40n, highestBlock: 100n, blocksPerSecond: 2.5, etaSeconds: 24 };
  const later = await scrape();
  assert.is(sample(later, 'mmnode_peers'), 0);
  assert.is(sample(later, 'mmnode_txpool_transactions{state="queued"}'), 5);
  assert.equal(['current_block', 'highest_block', 'blocks_per_second'].map((s) => sample(later, `mmnode_sync_${s}`)), [40, 100, 2.5]);
});

Monitor('/metrics: blocks told to the monitor count as best or fork; RPC calls and import times as they are fed', async () => {
  const before = await scrape();
  const count = (text: string, kind: string) => sample(text, `mmnode_blocks_imported_total{kind="${kind}"}`) ?? 0;
  const side = await chain.emptyChildOf(blocks[33]!, 7n);
  monitor.ref.tell({ type: 'chain.blockImported', block: blocks[35]!, best: true });
  monitor.ref.tell({ type: 'chain.blockImported', block: side, best: false });
  metrics.rpcCall('eth_call', 'ok', 0.003);
  metrics.rpcCall('eth_call', 'error', 0.2);
  metrics.blocksImported(0.04, 4); // a sync run of 4 blocks: 4 observations of 0.01 s
  const text = await scrape();
  assert.is(count(text, 'best') - count(before, 'best'), 1);
  assert.is(count(text, 'fork') - count(before, 'fork'), 1);
  assert.is(sample(text, 'mmnode_rpc_request_duration_seconds_count{method="eth_call",outcome="ok"}'), 1);
  assert.is(sample(text, 'mmnode_rpc_request_duration_seconds_count{method="eth_call",outcome="error"}'), 1);
  assert.is(sample(text, 'mmnode_rpc_request_duration_seconds_bucket{le="0.005",method="eth_call",outcome="ok"}'), 1);
  assert.is(sample(text, 'mmnode_rpc_request_duration_seconds_bucket{le="0.1",method="eth_call",outcome="error"}'), 0);
  assert.is(sample(text, 'mmnode_block_import_duration_seconds_count'), 4);
  assert.is(sample(text, 'mmnode_block_import_duration_seconds_bucket{le="0.01"}'), 4);
});

Monitor('/status.json: the node, its head, peers with their scores, pool, workers, mining, sync, and the recent blocks with the forks told', async () => {
  world.peers = [peer('a', 30001, 12n), peer('b', 30002)];
  world.scores = [{ id: 'a', score: -3, goodReputation: false } as ScoringEntry];
  world.pool = { pending: 2, queued: 1 };
  world.workers = { workers: 2, running: 1, queued: 0 };
  world.mining = { mode: 'interval', mining: true, hashrate: 12_345n, coinbase: new Uint8Array(20) };
  const s = await status();
  const head = chain.reader.head();
  const { blocks: recent, ...rest } = s;
  assert.equal(rest, {
    clientVersion: 'mmnode/test', network: 'regtest', chainId: '33', peerId: PEER_ID,
    head: { number: '35', hash: bytesToHex(head.hash), totalDifficulty: '36', timestamp: String(head.header.timestamp) },
    peers: [
      { id: 'a', address: '127.0.0.1:30001', head: '12', score: -3, goodReputation: false },
      { id: 'b', address: '127.0.0.1:30002', head: null, score: 0, goodReputation: true },
    ],
    pool: { pending: 2, queued: 1 },
    rpcWorkers: { workers: 2, running: 1, queued: 0 },
    mining: { mode: 'interval', mining: true, hashrate: '12345' },
    sync: null,
  });
  // At start it took the newest 32 canonical blocks (#3-#34) from the chain; then it was told of #35 and
  // of a side block at #34, which stays drawn beside the canonical one: the two oldest gave way.
  const numbers = recent.map((b: { number: string }) => Number(b.number));
  assert.equal(numbers, [...Array.from({ length: 29 }, (_, i) => i + 5), 34, 34, 35], 'the newest 32 blocks, the side one included');
  const at34 = recent.filter((b: { number: string }) => b.number === '34');
  assert.equal(at34.map((b: { hash: string; canonical: boolean }) => [b.hash, b.canonical]).sort(),
    [[bytesToHex(blocks[34]!.hash), true], [at34.find((b: { canonical: boolean }) => !b.canonical).hash, false]].sort());
  const b35 = recent.at(-1);
  assert.equal(b35, {
    number: '35', hash: bytesToHex(blocks[35]!.hash), parentHash: bytesToHex(blocks[34]!.hash), uncles: [], txs: 0,
    timestamp: String(blocks[35]!.header.timestamp), canonical: true,
  });

  // A block told twice is drawn once; a sync in progress is described.
  monitor.ref.tell({ type: 'chain.blockImported', block: blocks[35]!, best: true });
  world.sync = { startingBlock: 35n, currentBlock: 40n, highestBlock: 100n, blocksPerSecond: 2.5, etaSeconds: 24 };
  const again = await status();
  assert.equal(again.blocks, s.blocks);
  assert.equal(again.sync, {
    startingBlock: '35', currentBlock: '40', highestBlock: '100', blocksPerSecond: 2.5, etaSeconds: 24, text: describeProgress(world.sync),
  });
});

Monitor('/ is the status page; unknown paths are 404 and other methods 405', async () => {
  const page = await fetch(`${base}/`);
  assert.is(page.status, 200);
  assert.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = await page.text();
  assert.match(html, /fetch\('status\.json'/);
  assert.match(html, /id="fork-tree"/);
  const missing = await fetch(`${base}/nothing`);
  assert.is(missing.status, 404);
  assert.match(await missing.text(), /\/metrics, \/status\.json or \//);
  assert.is((await fetch(`${base}/metrics`, { method: 'POST', body: '' })).status, 405);
});

Monitor('a source that fails costs its request a 503; the monitor goes on serving', async () => {
  world.peersDown = true;
  for (const path of ['/metrics', '/status.json']) {
    const res = await fetch(`${base}${path}`);
    assert.is(res.status, 503, path);
    assert.is(await res.text(), 'node is stopping or busy\n');
  }
  world.peersDown = false;
  assert.is((await fetch(`${base}/metrics`)).status, 200);
  assert.is((await status()).network, 'regtest');
});

Monitor('a port in use: the monitor does not start, with the error the node reports as "metrics port … is already in use"', async () => {
  const { port } = await monitor.ref.ask('monitor.address', {});
  const second = spawnMonitor({ metrics: new NodeMetrics(sources), sources, host: '127.0.0.1', port });
  const err = await second.ready.then(() => undefined, (e: unknown) => e);
  assert.is((err as { code?: string } | undefined)?.code, 'EADDRINUSE');
  assert.match(portError(err, 'metrics', '--metrics-port', '127.0.0.1', port).message,
    `metrics port 127.0.0.1:${port} is already in use by another program: stop it, or choose another port with --metrics-port`);
  await second.stop();
  assert.is((await fetch(`${base}/metrics`)).status, 200, 'the first monitor serves on');
});

Monitor('stopping closes the port, also a connection open on it; the actor then refuses asks', async () => {
  // A request whose headers have not all arrived: closing the server alone would wait for it.
  const { port } = await monitor.ref.ask('monitor.address', {});
  const halfway = connectTcp(port, '127.0.0.1');
  halfway.on('error', () => {}); // reset by the server: what is expected
  await new Promise((resolve) => halfway.once('connect', resolve));
  const closed = new Promise((resolve) => halfway.once('close', resolve));
  halfway.write('GET /metrics HTTP/1.1\r\nhost: x\r\n');
  await within(monitor.stop(), 'the monitor stopping');
  await within(closed, 'the open connection closing');
  const refused = await fetch(`${base}/metrics`).then(() => undefined, (err: Error & { cause?: { code?: string } }) => err.cause?.code);
  assert.is(refused, 'ECONNREFUSED');
  assert.instance(await monitor.ref.ask('monitor.address', {}).catch((e) => e), ActorStoppedError);
});

Monitor.run();

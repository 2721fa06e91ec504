/**
 * --metrics-port: Prometheus metrics and the live status page, the page checked in a real headless
 * Chromium (the one shipped in @sparticuz/chromium, driven by playwright-core). Two nodes mine apart,
 * then the monitored one joins the other's heavier chain, so its own block becomes a fork. The monitor
 * actor's own rules (naming, paths, failing sources, stopping) are test/monitor's, on fake sources.
 */
import type { BrowserContext } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { rpc, rpcError, waitUntil } from '../helpers/rpc.ts';

const Monitor = suite('monitor: metrics and status page');
let a: TestNode;
let b: TestNode;
let browser: BrowserContext | undefined;
Monitor.after(async () => {
  await browser?.close();
  await a?.stop();
  await b?.stop();
});

/** A sample's value: `name{labels} value`. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

Monitor('setup: the monitored node mines #1 alone, then syncs the other node\'s heavier #1\', #2\'', async () => {
  a = await startTestNode({ metrics: { host: '127.0.0.1', port: 0 }, mining: 'off' });
  b = await startTestNode({ mining: 'off', coinbase: new Uint8Array(20).fill(0xbb) });
  await rpc(a.url, 'evm_mine');
  await rpc(b.url, 'evm_mine');
  await rpc(b.url, 'evm_mine');
  await rpcError(a.url, 'eth_getBalance', ['not an address', 'latest']);
  await a.node.mainThreadCalls!.warmUp();
  assert.is(await rpc(a.url, 'eth_call', [{ to: '0x0000000000000000000000000000000000000004', data: '0x12' }, 'latest']), '0x12');
  await a.node.peers.ask('p2p.dial', { multiaddr: b.node.p2p.multiaddrs[0]! });
  const bHead = (await rpc(b.url, 'eth_getBlockByNumber', ['latest', false])).hash;
  await waitUntil(async () => (await rpc(a.url, 'eth_getBlockByNumber', ['latest', false])).hash === bHead, { what: 'the monitored node on the other chain' });
});

Monitor('GET /metrics: the node\'s head, peers, pool, RPC calls, imports, sync and process as mmnode_ metrics', async () => {
  const text = await (await fetch(`${a.node.metricsUrl}/metrics`)).text();
  assert.is(sample(text, 'mmnode_head_number'), 2);
  assert.is(sample(text, 'mmnode_head_total_difficulty'), 3);
  assert.is(sample(text, 'mmnode_peers'), 1);
  assert.is(sample(text, 'mmnode_txpool_transactions{state="pending"}'), 0);
  assert.is(sample(text, 'mmnode_rpc_request_duration_seconds_count{method="evm_mine",outcome="ok"}'), 1);
  assert.is(sample(text, 'mmnode_rpc_request_duration_seconds_count{method="eth_getBalance",outcome="error"}'), 1);
  assert.ok(sample(text, 'mmnode_rpc_request_duration_seconds_bucket{le="5",method="evm_mine",outcome="ok"}') === 1, 'latency buckets by method');
  assert.ok(sample(text, 'mmnode_block_import_duration_seconds_count')! >= 3, 'its own block and the two synced');
  assert.is(sample(text, 'mmnode_sync_highest_block'), 0, 'not syncing any more');
  assert.is(sample(text, 'mmnode_rpc_worker_requests{state="queued"}'), 0);
  assert.is(sample(text, 'mmnode_rpc_main_thread_calls_total{outcome="answered"}'), 1, 'the call at the head, answered on the main thread');
  assert.ok(sample(text, 'mmnode_process_resident_memory_bytes')! > 0);
});

Monitor('GET /status.json: the fork is kept beside the best chain', async () => {
  const status: any = await (await fetch(`${a.node.metricsUrl}/status.json`)).json();
  assert.is(status.head.number, '2');
  assert.is(status.peers.length, 1);
  assert.is(status.peers[0].id, b.node.p2p.peerId);
  assert.is(typeof status.peers[0].score, 'number');
  const ones = status.blocks.filter((x: { number: string }) => x.number === '1');
  assert.equal(ones.map((x: { canonical: boolean }) => x.canonical).sort(), [false, true]);
});

Monitor('the status page in headless Chromium: head, peers and the fork drawn, updating live', async () => {
  browser = await launchBrowser();
  const page = await browser.newPage();
  await page.goto(`${a.node.metricsUrl}/`);
  const headShown = (text: string) => page.waitForSelector(`#head-number:text-is("${text}")`);
  await headShown('#2');
  assert.is(await page.textContent('#peer-count'), '1');
  assert.is(await page.locator('#peers tr').count(), 1);
  assert.is(await page.textContent('#sync'), 'in step');
  assert.is(await page.locator('#fork-tree circle.fork').count(), 1);
  assert.is(await page.locator('#fork-tree circle.canonical').count(), 3);
  assert.is(await page.locator('#fork-tree circle.fork').getAttribute('data-number'), '1');
  // Live: a new block shows without a reload.
  await rpc(a.url, 'evm_mine');
  await headShown('#3');
  assert.is(await page.locator('#fork-tree circle.canonical').count(), 4);
  await screenshot(page, 'status-page');
});

Monitor.run();

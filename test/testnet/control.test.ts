/**
 * The breakable testnet through its control interface, with real node processes behind their relays:
 * a partition stops blocks between the groups and heal joins them again; a node killed with -9 and
 * started again catches up; blocks cross a link with latency; the reorg scenario makes a log filter
 * and a WebSocket `logs` subscription on the losing side report the dropped log with removed: true.
 */
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { startCluster, type Cluster } from '../../testnet/cluster.ts';
import type { NodeStatus } from '../../testnet/control.ts';
import { ctl, ControlError, toRequest } from '../../testnet/ctl.ts';
import { minerCoinbase } from '../../testnet/supervisor.ts';
import { tempDir } from '../helpers/node.ts';
import { rpc, waitUntil } from '../helpers/rpc.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';

const Control = suite('testnet control');
const dir = tempDir('mmnode-testnet-ctl-');
let cluster: Cluster | undefined;
let url = '';

/** (Every node ran once before the control endpoint opened, so each has its RPC URL.) */
const status = (): Promise<{ nodes: (NodeStatus & { rpcUrl: string })[] }> => ctl(url, ['status']);
const rpcOf = async (i: number): Promise<string> => (await status()).nodes[i]!.rpcUrl;

/**
 * Every node on one chain: some node's recent head is, at its height, the block every node has there.
 * The miners keep mining, so this polls for such a moment rather than for equal heads.
 */
const oneChain = (what: string) => waitUntil(async () => {
  const { nodes } = await status();
  const head = nodes[0]!.head!;
  const there = await Promise.all(nodes.map(async (n) => (await rpc(n.rpcUrl, 'eth_getBlockByNumber', [`0x${head.number.toString(16)}`, false]))?.hash));
  return there.every((h) => h === head.hash);
}, { what, timeoutMs: 45_000 });

Control.before(async () => {
  cluster = await startCluster({ nodes: 4, miners: 2, topology: 'mesh', blockTimeMs: 1000, dir, rpcPort: 0, p2pPort: 0, controlPort: 0 });
  url = cluster.control.url;
  // Whatever happens to this process, no node outlives it.
  process.on('exit', () => {
    for (let i = 0; i < 4; i++) {
      const pid = cluster?.supervisor.describe(i).pid;
      try { if (pid) process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  });
  await waitUntil(async () => (await status()).nodes.every((n) => n.peers === 3), { what: 'a full mesh', timeoutMs: 30_000 });
});
Control.after(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

Control('bad commands get a clear error and change nothing', async () => {
  const refused = async (words: string[], status: number, message: RegExp) => {
    const err = await ctl(url, words).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof ControlError, `${words.join(' ')} was refused`);
    assert.is(err.status, status);
    assert.match(err.message, message);
  };
  await refused(['partition', '0,1', '1,2'], 400, /node 1 is in two groups/);
  await refused(['partition', '0', '7'], 400, /no node 7: nodes are 0 to 3/);
  await refused(['start', '1'], 409, /node 1 is up/);
  await refused(['reorg', '0'], 400, /depth must be a whole number from 1/);
  const raw = await fetch(`${url}/latency`, { method: 'POST', body: '{"ms":"soon"}' });
  assert.is(raw.status, 400);
  assert.equal(await raw.json(), { error: '"ms" must be a number' });
  assert.throws(() => toRequest(['partition', '0;1']), /not a group of node indexes/);
  assert.equal(await ctl(url, ['heal']), { partition: null, latency: null });
});

Control('a partition stops blocks between the groups; heal makes every head agree again', async () => {
  // Each side has a miner: 0 with follower 2, 1 with follower 3.
  await ctl(url, ['partition', '0,2', '1,3']);
  await waitUntil(async () => (await status()).nodes.every((n) => n.peers === 1), { what: 'one peer each (its own side)', timeoutMs: 15_000 });
  // Every block above the highest head of this moment is mined after the split, by its own side.
  const split = await status();
  const top = Math.max(...split.nodes.map((n) => n.head!.number));
  const [a, b] = [split.nodes[2]!, split.nodes[3]!];
  const beyond = (i: number) => waitUntil(async () => {
    const n = (await status()).nodes[i]!;
    return n.head!.number >= top + 2 && n.head;
  }, { what: `node ${i} two blocks beyond the split on its own`, timeoutMs: 20_000 });
  const [headA, headB] = await Promise.all([beyond(2), beyond(3)]);
  assert.is((await rpc(a.rpcUrl, 'eth_getBlockByHash', [headA.hash, false])).miner, minerCoinbase(0));
  assert.is((await rpc(b.rpcUrl, 'eth_getBlockByHash', [headB.hash, false])).miner, minerCoinbase(1));
  assert.is(await rpc(b.rpcUrl, 'eth_getBlockByHash', [headA.hash, false]), null, 'side A\'s new block never reached side B');
  assert.is(await rpc(a.rpcUrl, 'eth_getBlockByHash', [headB.hash, false]), null, 'side B\'s new block never reached side A');
  await ctl(url, ['heal']);
  // The nodes redial by themselves, after a backoff that grew while the relays refused them.
  await oneChain('one chain again after heal');
});

Control('a node killed with -9 and started again rejoins and catches up', async () => {
  await ctl(url, ['kill', '3']);
  const down = await status();
  assert.is(down.nodes[3]!.state, 'down');
  const before = down.nodes[0]!.head!.number;
  await waitUntil(async () => (await status()).nodes[0]!.head!.number >= before + 3, { what: 'three blocks while node 3 is down', timeoutMs: 20_000 });
  const { state } = await ctl(url, ['start', '3']);
  assert.is(state, 'up');
  await waitUntil(async () => (await status()).nodes[3]!.head!.number >= before + 3, { what: 'node 3 caught up', timeoutMs: 30_000 });
  await oneChain('node 3 on everyone\'s chain');
});

Control('with latency between the groups a block mined on one side still arrives on the other', async () => {
  await ctl(url, ['latency', '300', '0,2', '1,3']);
  // Only node 1 mines meanwhile, so its block is the one node 2 must take, across the slow link.
  const [node0, node1, node2] = await Promise.all([rpcOf(0), rpcOf(1), rpcOf(2)]);
  await rpc(node0, 'evm_stopMining');
  try {
    const from = Number(await rpc(node1, 'eth_blockNumber'));
    // (node 0 may have mined one more just before it stopped: that one does not count)
    const block = await waitUntil(async () => {
      const b = await rpc(node1, 'eth_getBlockByNumber', ['latest', false]);
      return Number(b.number) > from && b.miner === minerCoinbase(1) && b;
    }, { what: 'a new block of node 1', timeoutMs: 20_000 });
    await waitUntil(() => rpc(node2, 'eth_getBlockByHash', [block.hash, false]), { what: 'node 1\'s block on node 2', timeoutMs: 30_000 });
  } finally {
    await rpc(node0, 'evm_startMining');
  }
  assert.equal((await ctl(url, ['latency', '0'])).latency, null);
});

Control('reorg 2: a filter and a WebSocket logs subscription on the losing side see the dropped log with removed: true', async () => {
  const watched = await rpcOf(1); // on the losing side (nodes 0 and 1), not the node the scenario mines on
  const filter = await rpc(watched, 'eth_newFilter', [{}]);
  const ws = new WebSocket(watched.replace(/^http/, 'ws'));
  const notes: { removed: boolean; transactionHash: string }[] = [];
  ws.on('message', (m) => { const msg = JSON.parse(String(m)); if (msg.method === 'eth_subscription') notes.push(msg.params.result); });
  await new Promise((r, e) => { ws.once('open', r); ws.once('error', e); });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', {}] }));
  try {
    const report = await ctl(url, ['reorg', '2']);
    assert.is(report.depth, 2);
    assert.equal([report.losing, report.watched], [[0, 1], 0]);
    assert.is(report.removedLogs, 1);
    const tx = report.log.transactionHash;
    const changes: { removed: boolean; transactionHash: string; blockHash: string }[] = await rpc(watched, 'eth_getFilterChanges', [filter]);
    assert.ok(changes.some((l) => l.removed && l.transactionHash === tx && l.blockHash === report.log.blockHash), 'the filter reports the dropped log as removed');
    await waitUntil(() => notes.some((l) => l.removed && l.transactionHash === tx), { what: 'the removed log on the subscription' });
    const forTx = notes.filter((l) => l.transactionHash === tx);
    assert.equal(forTx.slice(0, 2).map((l) => l.removed), [false, true], 'first the log, then its removal');
  } finally {
    ws.close();
  }
});

Control('the overview page: every node and one fork tree across them, in headless Chromium', async () => {
  const data: any = await (await fetch(`${url}/overview.json`)).json();
  assert.is(data.nodes.length, 4);
  for (const n of data.nodes) assert.ok(n.status?.blocks.length > 0, `node ${n.index}'s blocks`);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    await page.waitForSelector('#nodes tr:nth-child(4)');
    await page.waitForSelector('#fork-tree circle');
    // Each node's head is marked in the tree.
    const labels = (await page.locator('#fork-tree text.label').allTextContents()).join(' ');
    for (let i = 0; i < 4; i++) assert.match(labels, new RegExp(`\\bn${i}\\b`));
    await screenshot(page, 'testnet-overview');
  } finally {
    await browser.close();
  }
});

Control.run();

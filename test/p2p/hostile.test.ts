/**
 * Hostile peers on a network of nodes on their own loopback addresses: garbage and half-open
 * connections on the p2p port leave the node serving; an IP ban cuts a host off until it is lifted.
 */
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { rpc, waitUntil } from '../helpers/rpc.ts';

const Hostile = suite('hostile peers');
const nodes: TestNode[] = [];
Hostile.after.each(async () => { for (const n of nodes.splice(0).reverse()) await n.stop(); });

async function nodeAt(host: string, bootnodes: string[] = []): Promise<TestNode> {
  const n = await startTestNode({ mining: 'off', p2p: { host, port: 0, announce: [], bootnodes, minPeers: 8, maxPeers: 32, punishmentMs: 60_000 } });
  nodes.push(n);
  return n;
}
const portOf = (n: TestNode) => Number(/\/tcp\/(\d+)\//.exec(n.node.p2p.multiaddrs[0]!)![1]);
const peers = async (n: TestNode) => Number(await rpc(n.url, 'net_peerCount'));

Hostile('garbage and a flood of half-open connections on the p2p port: RPC keeps answering, real peers connect afterwards', async () => {
  const a = await nodeAt('127.0.0.2');
  const sockets: Socket[] = [];
  const open = (data?: Uint8Array) => new Promise<void>((resolve) => {
    const s = connect({ host: '127.0.0.2', port: portOf(a), localAddress: '127.0.0.9' }, () => { if (data) s.write(data); resolve(); });
    s.on('error', () => resolve());
    sockets.push(s);
  });
  try {
    for (let i = 0; i < 50; i++) await open(randomBytes(1 + i * 97));
    await Promise.all(Array.from({ length: 300 }, () => open()));
    assert.is(await rpc(a.url, 'eth_blockNumber'), '0x0', 'RPC answers during the flood');
  } finally {
    for (const s of sockets) s.destroy();
  }
  const b = await nodeAt('127.0.0.3', [a.node.p2p.multiaddrs[0]!]);
  await waitUntil(async () => (await peers(b)) === 1, { what: 'a real peer connected after the flood', timeoutMs: 20_000 });
  assert.is(await peers(a), 1);
});

Hostile('sco_banAddress by IP cuts a host off and keeps it out; unbanning lets it back', async () => {
  const a = await nodeAt('127.0.0.2');
  const b = await nodeAt('127.0.0.3', [a.node.p2p.multiaddrs[0]!]);
  await waitUntil(async () => (await peers(a)) === 1, { what: 'b connected' });
  assert.match((await rpc<string[]>(a.url, 'net_peerList'))[0]!, /\| 127\.0\.0\.3:\d+$/, 'b is seen at its own address');
  assert.is(await rpc(a.url, 'sco_banAddress', ['127.0.0.3']), null);
  await waitUntil(async () => (await peers(a)) === 0 && (await peers(b)) === 0, { what: 'b cut off' });
  // b keeps redialling (backoff) and is refused each time; a never dials it.
  await new Promise((r) => setTimeout(r, 3_000));
  assert.is(await peers(a), 0, 'still out');
  assert.is(await rpc(a.url, 'sco_unbanAddress', ['127.0.0.3']), null);
  await waitUntil(async () => (await peers(a)) === 1, { what: 'b back after the unban', timeoutMs: 30_000 });
});

Hostile.run();

/**
 * A peer that gossips an invalid block is scored down, banned, disconnected, and refused when it dials
 * again; one that answers a sync request with garbage is banned too, one that hangs up on it is not.
 */
import { ethers } from 'ethers';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBlock, makeBlock } from '../../../src/chain/codec/block.ts';
import { createP2P, encodeStatus, gossipTopics, STATUS_PROTOCOL, topicScoreParams, type P2P } from '../../../src/p2p/index.ts';
import { BLOCKS_BY_RANGE_PROTOCOL } from '../../../src/p2p/reqresp/blocksByRange.ts';
import { startTestnet, type TestnetNode } from '../../../testnet/harness.ts';
import { startTestNode, tempDir } from '../../helpers/node.ts';
import { rpc, waitUntil } from '../../helpers/rpc.ts';

const Misbehaviour = suite('peer misbehaviour');

/**
 * A bare libp2p host that speaks the protocol well enough to pass the handshake (same chain, same
 * genesis) and subscribes to both topics, dialled into `target`. No DHT of ours: nobody discovers it.
 * `served` counts the handshakes the target asked of it. With `serveBlocks` it claims a chain the
 * target lacks (five blocks, more work), so the target asks it for blocks, and answers with that.
 */
async function evilPeer(target: TestnetNode, dataDir: string, serveBlocks?: (evil: P2P, from: string) => Promise<Uint8Array>) {
  const genesis = (await target.node.reader.canonicalBlock(0n))!;
  const topics = gossipTopics('regtest', genesis.hash);
  const evil = await createP2P({
    dataDir, host: '127.0.0.1', port: 0, announce: [], maxPeers: 8, maxMessageBytes: 1 << 20, requestTimeoutMs: 5_000,
    dhtProtocol: '/evil/kad/1.0.0', topicScores: topicScoreParams(topics), isBanned: () => false,
  });
  const served = { statusRequests: 0 };
  await evil.serve(STATUS_PROTOCOL, 1024, async () => {
    served.statusRequests++;
    const claim = serveBlocks ? { headNumber: 5n, totalDifficulty: 1n << 40n } : { headNumber: 0n, totalDifficulty: 1n };
    return encodeStatus({ chainId: 33n, genesisHash: genesis.hash, headHash: genesis.hash, ...claim });
  });
  if (serveBlocks) await evil.serve(BLOCKS_BY_RANGE_PROTOCOL, 1024, (_req, from) => serveBlocks(evil, from));
  evil.onGossip(topics.blocks, async () => 'accept');
  evil.onGossip(topics.txs, async () => 'accept');
  await evil.dial(target.node.p2p.multiaddrs[0]!);
  return { evil, genesis, topics, served };
}

Misbehaviour('an invalid block gets its sender banned and disconnected; a new connection from it is closed before any handshake', async () => {
  const net = await startTestnet({ nodes: 1, miners: [] });
  const target = net.nodes[0]!;
  const evilDir = tempDir('mmnode-evil-');
  let evil: P2P | undefined;
  try {
    const peer = await evilPeer(target, evilDir);
    evil = peer.evil;
    const { genesis, topics, served } = peer;
    await waitUntil(async () => (await rpc(target.url, 'net_peerCount')) === '0x1', { what: 'the peer connected' });
    assert.is(served.statusRequests, 1, 'the target handshook once');

    // Blocks on genesis whose merged-mining proof is missing (a new one per try: gossip drops repeats).
    let attempt = 0n;
    const forged = () => makeBlock({ ...genesis.header, parentHash: genesis.hash, number: 1n, timestamp: 10n + attempt++, gasLimit: genesis.header.gasLimit }, []);
    const scored = async () => ((await rpc(target.url, 'sco_peerList')) as { invalidBlocks: number; goodReputation: boolean; type: string }[])
      .find((e) => e.type === 'node' && e.invalidBlocks > 0);
    const entry = await waitUntil(async () => {
      await evil!.publish(topics.blocks, encodeBlock(forged()));
      return scored();
    }, { what: 'the invalid block scored', timeoutMs: 15_000 });
    assert.is(entry.goodReputation, false);
    assert.is(await rpc(target.url, 'eth_blockNumber'), '0x0', 'the chain is untouched');
    await waitUntil(async () => (await rpc(target.url, 'net_peerCount')) === '0x0', { what: 'the peer disconnected' });

    // A new connection is closed by the ban (the connection gater, or the peer manager on connect),
    // never handshaken: a handshake would have asked for our status again.
    await evil.dial(target.node.p2p.multiaddrs[0]!).catch((err: Error) => assert.match(err.message, /closed|refused|reset|abort|denied|ended/i));
    await waitUntil(() => evil!.peers().length === 0, { what: 'the new connection closed by the target' });
    assert.is(served.statusRequests, 1, 'no second handshake');
    assert.is(await rpc(target.url, 'net_peerCount'), '0x0');
    const summary = await rpc(target.url, 'sco_reputationSummary');
    assert.ok(summary.invalidBlocks >= 1);
    assert.is(summary.badReputationCount, 1);
    assert.is(summary.punishments, 1);
  } finally {
    await evil?.stop();
    rmSync(evilDir, { recursive: true, force: true });
    await net.stop();
  }
});

Misbehaviour('gossiped transactions: one no state could admit is penalised and not relayed, one our state refuses is ignored without penalty', async () => {
  const net = await startTestnet({ nodes: 2, miners: [] });
  const [target, bystander] = net.nodes;
  const evilDir = tempDir('mmnode-evil-');
  let evil: P2P | undefined;
  try {
    const peer = await evilPeer(target!, evilDir);
    evil = peer.evil;
    const { topics } = peer;
    await waitUntil(async () => (await rpc(target!.url, 'net_peerCount')) === '0x2', { what: 'the peer connected' });
    const counters = async (url: string) => ((await rpc(url, 'sco_peerList')) as { type: string; validTransactions: number; invalidTransactions: number }[]).filter((e) => e.type === 'node');
    const penalised = async (url: string) => (await counters(url)).some((e) => e.invalidTransactions > 0);

    // A transfer from an account with nothing: refused for our state's sake (funds), not the sender's fault.
    const poor = new ethers.Wallet(`0x${'42'.repeat(32)}`);
    const unfunded = await poor.signTransaction({ to: poor.address, value: 1n, nonce: 0, gasLimit: 21_000, gasPrice: 0, chainId: 33 });
    await evil.publish(topics.txs, ethers.getBytes(unfunded));
    // Gas below the intrinsic cost: no state could admit it.
    const hopeless = await poor.signTransaction({ to: poor.address, value: 0n, nonce: 0, gasLimit: 20_000, gasPrice: 0, chainId: 33 });
    await evil.publish(topics.txs, ethers.getBytes(hopeless));
    await waitUntil(() => penalised(target!.url), { what: 'the hopeless transaction penalised' });
    await new Promise((r) => setTimeout(r, 500)); // a relayed message, or a second penalty, would have shown by now
    assert.is((await counters(target!.url)).reduce((sum, e) => sum + e.invalidTransactions, 0), 1, 'only the hopeless one counts against the sender');
    assert.is(await penalised(bystander!.url), false, 'the target relayed neither: the bystander never saw them');
    assert.equal(await rpc(target!.url, 'txpool_status'), { pending: 0, queued: 0 });
  } finally {
    await evil?.stop();
    rmSync(evilDir, { recursive: true, force: true });
    await net.stop();
  }
});

Misbehaviour('asked for blocks, a peer that hangs up is scored a timeout and kept; one that answers garbage is banned', async () => {
  const net = await startTestnet({ nodes: 1, miners: [] });
  const target = net.nodes[0]!;
  const dirs = [tempDir('mmnode-evil-'), tempDir('mmnode-evil-')];
  const evils: P2P[] = [];
  type Entry = { id: string; type: string; timeoutMessages: number; invalidMessages: number; goodReputation: boolean };
  const entryOf = async (evil: P2P) => ((await rpc(target.url, 'sco_peerList')) as Entry[]).find((e) => e.type === 'node' && e.id === evil.peerId.slice(-8));
  try {
    // Gone: it drops the connection instead of answering (as a peer that stops or crashes mid-sync does).
    const gone = await evilPeer(target, dirs[0]!, async (evil, from) => {
      await evil.disconnect(from);
      return new Uint8Array();
    });
    evils.push(gone.evil);
    const timedOut = await waitUntil(async () => { const e = await entryOf(gone.evil); return e && e.timeoutMessages > 0 && e; }, { what: 'the hang-up scored' });
    assert.is(timedOut.invalidMessages, 0);
    assert.is(timedOut.goodReputation, true, 'not punished for going away');
    const asked = gone.served.statusRequests;
    await gone.evil.dial(target.node.p2p.multiaddrs[0]!);
    await waitUntil(() => gone.served.statusRequests > asked, { what: 'a new connection handshaken: the peer is not banned' });

    // Garbled: it answers, but with bytes that are no list of blocks.
    const garbled = await evilPeer(target, dirs[1]!, async () => Uint8Array.of(0x83, 0x01));
    evils.push(garbled.evil);
    const punished = await waitUntil(async () => { const e = await entryOf(garbled.evil); return e && e.invalidMessages > 0 && e; }, { what: 'the garbage scored' });
    assert.is(punished.goodReputation, false, 'banned for breaking the protocol');
    assert.is((await entryOf(gone.evil))!.goodReputation, true);
  } finally {
    for (const evil of evils) await evil.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await net.stop();
  }
});

Misbehaviour('a peer that bans us is redialled on the backoff schedule, not in a loop, and rejoins once the ban ends', async () => {
  const net = await startTestnet({ nodes: 2, miners: [] });
  const [banning, banned] = net.nodes as [TestnetNode, TestnetNode];
  try {
    await waitUntil(async () => (await rpc(banned.url, 'net_peerCount')) === '0x1', { what: 'the two connected' });
    await banning.node.peers.ask('peers.ban', { peer: banned.node.p2p.peerId, ms: 60_000 });
    // The banned node keeps dialling (it is below its minimum of peers): each dial gets through the
    // encryption handshake, then the banning node closes it, so its status handshake fails.
    const failures = async () => ((await rpc(banned.url, 'sco_peerList')) as { id: string; failedHandshakes: number }[])
      .find((e) => e.id === banning.node.p2p.peerId.slice(-8))?.failedHandshakes ?? 0;
    await waitUntil(async () => (await failures()) > 0, { what: 'a dial refused after the ban' });
    await new Promise((r) => setTimeout(r, 4_000));
    // Waits of 0.5–1.5 s, then 1–3 s, then 2–6 s: at most four dials in these four seconds (and the first).
    assert.ok((await failures()) <= 5, `${await failures()} refused dials in 4 s`);
    await banning.node.peers.ask('peers.unban', { peer: banned.node.p2p.peerId });
    await waitUntil(async () => (await rpc(banned.url, 'net_peerCount')) === '0x1', { what: 'the two connected again', timeoutMs: 30_000 });
  } finally {
    await net.stop();
  }
});

Misbehaviour('sco_banAddress takes addresses and CIDR blocks, refuses the machine\'s own address, and unbans', async () => {
  const net = await startTestnet({ nodes: 1, miners: [] });
  const url = net.nodes[0]!.url;
  try {
    assert.is(await rpc(url, 'sco_banAddress', ['192.168.51.1']), null);
    assert.is(await rpc(url, 'sco_banAddress', ['10.0.0.0/8']), null);
    assert.equal(await rpc(url, 'sco_bannedAddresses'), ['192.168.51.1', '10.0.0.0/8']);
    const bad = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sco_banAddress', params: ['127.0.0.1'] }) }).then((r) => r.json() as Promise<{ error: { code: number; message: string } }>);
    assert.is(bad.error.code, -32602);
    assert.match(bad.error.message, /own address/);
    const block = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sco_banAddress', params: ['127.0.0.0/24'] }) }).then((r) => r.json() as Promise<{ error: { code: number } }>);
    assert.is(block.error.code, -32602, 'a block holding 127.0.0.1 is refused too');
    assert.is(await rpc(url, 'sco_unbanAddress', ['10.0.0.0/8']), null);
    assert.equal(await rpc(url, 'sco_bannedAddresses'), ['192.168.51.1']);
  } finally {
    await net.stop();
  }
});

Misbehaviour('a peer of another chain is dropped after the handshake', async () => {
  const net = await startTestnet({ nodes: 1, miners: [] });
  const target = net.nodes[0]!;
  const other = await startTestNode({
    network: 'testnet', mining: 'off',
    p2p: { host: '127.0.0.1', port: 0, announce: [], bootnodes: [target.node.p2p.multiaddrs[0]!], minPeers: 8, maxPeers: 8, punishmentMs: 60_000 },
  });
  try {
    const entry = await waitUntil(async () => ((await rpc(target.url, 'sco_peerList')) as { id: string; invalidNetworks: number }[]).find((e) => e.invalidNetworks > 0),
      { what: 'the wrong-chain peer scored' });
    assert.is(entry.id, other.node.p2p.peerId.slice(-8), 'the testnet node is the one scored (by its short id)');
    assert.is(entry.invalidNetworks, 1);
    assert.is(await rpc(target.url, 'net_peerCount'), '0x0');
    assert.is(await rpc(other.url, 'net_peerCount'), '0x0');
  } finally {
    await other.stop();
    await net.stop();
  }
});

Misbehaviour.run();

/**
 * A network that heals itself, with real node processes, each on its own loopback address standing
 * in for a host: twelve nodes given only node 0 as bootnode find each other (a mesh, not a star);
 * with node 0 killed (-9) blocks still reach everyone; nodes restarted meanwhile rejoin through the
 * peers they remember; node 0 restarted is taken back and catches up.
 */
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startNodeProcess, type NodeProcess } from '../../testnet/launch.ts';
import { tempDir } from '../helpers/node.ts';
import { rpc, waitUntil } from '../helpers/rpc.ts';

const Healing = suite('self-healing network');
const COUNT = 12;
// One port for every node: each has its own address. Random, so a run never meets the last one's sockets.
const PORT = 20_000 + Math.floor(Math.random() * 20_000);
const hostOf = (i: number) => `127.0.0.${i + 2}`;

interface Member { dir: string; proc?: NodeProcess; url?: string }
const members: Member[] = Array.from({ length: COUNT }, () => ({ dir: tempDir('mmnode-heal-') }));
let bootnode = '';

async function launch(i: number): Promise<void> {
  const m = members[i]!;
  m.proc = await startNodeProcess([
    '--quiet', '--no-mining', '--data-dir', m.dir, '--rpc-port', '0', '--p2p-host', hostOf(i), '--p2p-port', String(PORT),
    '--min-peers', '5', ...(i === 0 ? [] : ['--bootnodes', bootnode]),
  ]);
  m.url = m.proc.ready.rpcUrl;
}
async function kill(i: number): Promise<void> {
  const m = members[i]!;
  m.proc!.child.kill('SIGKILL');
  await m.proc!.exited;
  m.proc = undefined;
}
const up = () => members.map((m, i) => ({ ...m, i })).filter((m) => m.proc);
const peerCount = async (i: number) => Number(await rpc(members[i]!.url!, 'net_peerCount'));

/** Mines one block on node `i` and waits until every running node has it. */
async function mineAndSpread(i: number, what: string): Promise<string> {
  await rpc(members[i]!.url!, 'evm_mine');
  const block = await waitUntil(async () => {
    const b = await rpc(members[i]!.url!, 'eth_getBlockByNumber', ['latest', false]);
    return b.number !== '0x0' ? b : undefined;
  }, { what: `a block on node ${i}` });
  for (const m of up()) {
    await waitUntil(async () => (await rpc(m.url!, 'eth_getBlockByHash', [block.hash, false])) !== null,
      { what: `${what}: block ${block.number} on node ${m.i}`, timeoutMs: 30_000 });
  }
  return block.hash;
}

Healing.after(async () => {
  for (const m of members) {
    m.proc?.child.kill('SIGKILL');
    rmSync(m.dir, { recursive: true, force: true });
  }
});

Healing('twelve nodes with one bootnode form a mesh, survive its death, rejoin without it and take it back', async () => {
  await launch(0);
  bootnode = members[0]!.proc!.ready.multiaddrs[0]!;
  assert.match(bootnode, new RegExp(`^/ip4/${hostOf(0).replace(/\./g, '\\.')}/tcp/${PORT}/p2p/`), 'the printed address is the dialable one');
  for (let i = 1; i < COUNT; i++) await launch(i);

  // Discovery: every node reaches its minimum of 5 peers, which only node 0 could give it in a star.
  for (let i = 1; i < COUNT; i++) {
    await waitUntil(async () => (await peerCount(i)) >= 5, { what: `node ${i} with 5 peers`, timeoutMs: 60_000 });
  }
  const peersOf5: string[] = await rpc(members[5]!.url!, 'net_peerList');
  assert.ok(peersOf5.some((p) => !p.includes(hostOf(0))), 'node 5 has peers other than the bootnode');
  assert.ok(peersOf5.every((p) => /\| 127\.0\.0\.\d+:\d+$/.test(p)) && !peersOf5.some((p) => p.endsWith(`| 127.0.0.1:${PORT}`)), 'peers are seen at their own addresses');

  await kill(0);
  await mineAndSpread(7, 'with the bootnode dead');

  // Restarted while the bootnode is down: only the peers they remember can take them back.
  await kill(3);
  await kill(4);
  await launch(3);
  await launch(4);
  for (const i of [3, 4]) await waitUntil(async () => (await peerCount(i)) >= 2, { what: `node ${i} rejoined`, timeoutMs: 30_000 });
  const head = await mineAndSpread(9, 'after the restarts');

  await launch(0);
  await waitUntil(async () => (await peerCount(0)) >= 2, { what: 'the bootnode taken back', timeoutMs: 30_000 });
  await waitUntil(async () => (await rpc(members[0]!.url!, 'eth_getBlockByHash', [head, false])) !== null,
    { what: 'the bootnode caught up', timeoutMs: 30_000 });
  await mineAndSpread(0, 'mined by the returned bootnode');
});

Healing.run();

/** A network of real nodes over libp2p on loopback: gossip, late-joiner sync, partitions and reorgs. */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestnet, type Testnet } from '../../testnet/harness.ts';
import { rpc, waitUntil } from '../helpers/rpc.ts';
import { compileFixture } from '../helpers/solc.ts';

const Network = suite('p2p network');
const wallet = new ethers.Wallet('0x1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75');
let nonce = 0;
const transfer = async (value = 1n) =>
  wallet.signTransaction({ to: '0x09a1eda29f664ac8f68106f6567276df0c65d859', value, nonce: nonce++, gasLimit: 21_000, gasPrice: 0, chainId: 33 });
const head = async (url: string) => rpc(url, 'eth_getBlockByNumber', ['latest', false]);

let net: Testnet | undefined;
Network.after.each(async () => { await net?.stop(); net = undefined; });

Network('in a 4-node testnet a transaction sent to node 1 has its receipt on node 4', async () => {
  net = await startTestnet({ nodes: 4, miners: [1, 2] });
  const [n1, , , n4] = net.nodes;
  await waitUntil(async () => (await rpc(n4!.url, 'net_peerCount')) === '0x3', { what: 'node 4 connected to 3 peers' });
  nonce = Number(await rpc(n1!.url, 'eth_getTransactionCount', [wallet.address, 'latest']));
  const hash = await rpc(n1!.url, 'eth_sendRawTransaction', [await transfer()]);
  const receipt = await waitUntil(() => rpc(n4!.url, 'eth_getTransactionReceipt', [hash]), { what: 'the receipt on node 4', timeoutMs: 15_000 });
  assert.is(receipt.status, '0x1');
  // Both miners may include it in sibling blocks; the fork choice makes every node settle on the same one.
  await waitUntil(async () => {
    const hashes = await Promise.all(net!.nodes.map(async (n) => (await rpc(n.url, 'eth_getTransactionReceipt', [hash]))?.blockHash));
    return hashes[0] !== undefined && hashes.every((h) => h === hashes[0]);
  }, { what: 'every node on the same block for the transfer', timeoutMs: 15_000 });
  // A short id, a separator, then host:port (README "Method support"); here the last 8 characters of each other node's peer id.
  const peers: string[] = await rpc(n4!.url, 'net_peerList');
  for (const entry of peers) assert.match(entry, /^\w{8} \| 127\.0\.0\.1:\d+$/);
  const others = net.nodes.filter((n) => n !== n4).map((n) => String(n.node.p2p.peerId).slice(-8));
  assert.equal(peers.map((p) => p.slice(0, 8)).sort(), others.sort());
  assert.is(await rpc(n4!.url, 'net_listening'), true);
});

Network('a node started after 500 blocks syncs and matches every block hash', async () => {
  net = await startTestnet({ nodes: 1, miners: [0], mining: 'interval', blockTimeMs: 10 });
  const [miner] = net.nodes;
  await waitUntil(async () => Number(await rpc(miner!.url, 'eth_blockNumber')) >= 500, { what: '500 blocks', timeoutMs: 60_000 });
  const late = await net.add();
  const target = 500;
  await waitUntil(async () => Number(await rpc(late.url, 'eth_blockNumber')) >= target, { what: 'the late joiner at 500', timeoutMs: 60_000 });
  for (let from = 0; from <= target; from += 50) {
    const body = (url: string) => fetch(url, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: 50 }, (_, k) => ({ jsonrpc: '2.0', id: k, method: 'eth_getBlockByNumber', params: [`0x${(from + k).toString(16)}`, false] }))),
    }).then((r) => r.json() as Promise<{ result: { hash: string } | null }[]>);
    const [a, b] = await Promise.all([body(miner!.url), body(late.url)]);
    for (let k = 0; k < 50 && from + k <= target; k++) assert.is(b[k]!.result?.hash, a[k]!.result?.hash, `block ${from + k}`);
  }
});

Network('a transaction sent while a node had no peers reaches a peer that connects later, and is mined there', async () => {
  net = await startTestnet({ nodes: 1, miners: [] });
  const [alone] = net.nodes;
  nonce = Number(await rpc(alone!.url, 'eth_getTransactionCount', [wallet.address, 'latest']));
  const hash = await rpc(alone!.url, 'eth_sendRawTransaction', [await transfer()]);
  const late = await net.add({ mining: 'auto' });
  const receipt = await waitUntil(() => rpc(late.url, 'eth_getTransactionReceipt', [hash]), { what: 'the receipt on the node that joined later', timeoutMs: 15_000 });
  assert.is(receipt.status, '0x1');
  await waitUntil(() => rpc(alone!.url, 'eth_getTransactionReceipt', [hash]), { what: 'the block back on the first node', timeoutMs: 15_000 });
});

Network('two halves mining apart converge on the heavier chain; a filter on the losing side sees removed logs; dropped transactions are mined again', async () => {
  net = await startTestnet({ nodes: 4, miners: [0, 2], mining: 'off' });
  const [a1, a2, b1, b2] = net.nodes;
  await waitUntil(async () => (await rpc(b2!.url, 'net_peerCount')) === '0x3', { what: 'full mesh' });
  nonce = Number(await rpc(a1!.url, 'eth_getTransactionCount', [wallet.address, 'latest']));
  // A contract that logs, deployed everywhere before the split.
  const { abi, bytecode } = compileFixture('Store.sol', 'Store');
  const store = new ethers.Interface(abi);
  const deploy = await wallet.signTransaction({ data: bytecode + store.encodeDeploy([1n]).slice(2), nonce: nonce++, gasLimit: 1_000_000, gasPrice: 0, chainId: 33 });
  const deployHash = await rpc(a1!.url, 'eth_sendRawTransaction', [deploy]);
  await mineVia(a1!.url);
  const { contractAddress } = await waitUntil(() => rpc(b2!.url, 'eth_getTransactionReceipt', [deployHash]), { what: 'the contract everywhere' });

  await net.partition([0, 1], [2, 3]);
  await waitUntil(async () => (await rpc(a1!.url, 'net_peerCount')) === '0x1', { what: 'the partition' });
  const filter = await rpc(a1!.url, 'eth_newFilter', [{ address: contractAddress }]);
  // Side A mines one block holding a logging transaction; side B mines three empty blocks (heavier).
  const call = await wallet.signTransaction({ to: contractAddress, data: store.encodeFunctionData('set', [77n]), nonce: nonce++, gasLimit: 200_000, gasPrice: 0, chainId: 33 });
  const txHash = await rpc(a2!.url, 'eth_sendRawTransaction', [call]);
  const ownNumber = BigInt(await rpc(a1!.url, 'eth_blockNumber'));
  await mineVia(a1!.url);
  const onA = await waitUntil(() => rpc(a2!.url, 'eth_getTransactionReceipt', [txHash]), { what: 'the call mined on side A' });
  const seen = await waitUntil(async () => { const c = await rpc(a1!.url, 'eth_getFilterChanges', [filter]); return c.length ? c : undefined; }, { what: 'the log on side A' });
  assert.equal(seen.map((l: { removed: boolean; transactionHash: string }) => [l.removed, l.transactionHash]), [[false, txHash]]);
  for (let i = 0; i < 3; i++) await mineVia(b1!.url);
  await waitUntil(async () => BigInt(await rpc(b2!.url, 'eth_blockNumber')) === ownNumber + 3n, { what: 'side B at +3' });
  const heavier = await head(b1!.url);

  await net.heal();
  for (const n of net.nodes) {
    await waitUntil(async () => (await head(n.url)).number >= heavier.number && (await rpc(n.url, 'eth_getBlockByNumber', [heavier.number, false]))?.hash === heavier.hash,
      { what: `node ${n.index} on the heavier chain`, timeoutMs: 20_000 });
  }
  assert.is((await rpc(a1!.url, 'eth_getBlockByNumber', [onA.blockNumber, false])).hash === onA.blockHash, false, 'side A block left the canonical chain');
  const dropped = await rpc(a1!.url, 'eth_getFilterChanges', [filter]);
  assert.ok(dropped.some((l: { removed: boolean; transactionHash: string; blockHash: string }) => l.removed && l.transactionHash === txHash && l.blockHash === onA.blockHash),
    'the filter reports the dropped log with removed: true');
  // The call went back to side A's pool; the next block mined anywhere includes it.
  await mineVia(a1!.url);
  const again = await waitUntil(async () => {
    const r = await rpc(b2!.url, 'eth_getTransactionReceipt', [txHash]);
    return r && r.blockHash !== onA.blockHash ? r : undefined;
  }, { what: 'the dropped transfer mined again', timeoutMs: 20_000 });
  assert.is(again.status, '0x1');
});

/** Mines one block on a node whose built-in client is off (evm_mine seals through the same submission path). */
async function mineVia(url: string): Promise<void> {
  const before = BigInt(await rpc(url, 'eth_blockNumber'));
  await rpc(url, 'evm_mine');
  await waitUntil(async () => BigInt(await rpc(url, 'eth_blockNumber')) > before, { what: 'a mined block' });
}

Network.run();

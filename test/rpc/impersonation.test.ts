/**
 * Account impersonation on a regtest node (docs/rpc-compatibility.md "Account impersonation"), driven by
 * real clients: viem's test actions and ethers' JSON-RPC signer send as an account whose key the node
 * lacks; an impersonated contract sends, and an account with code that is not impersonated is refused; a peer
 * imports the block and names the same sender; a marked transaction from outside is refused.
 */
import { ethers } from 'ethers';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestClient, createWalletClient, defineChain, http, parseEther, publicActions } from 'viem';
import { startTestNode, tempDir, type TestNode } from '../helpers/node.ts';
import { rpc, rpcError, waitUntil } from '../helpers/rpc.ts';

const WHALE = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a';
const OTHER = '0x6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b';
const TO = '0x4444444444444444444444444444444444444444';
const DEV = '0x7986b3df570230288501eea3d890bd66948c9b79';
const regtest = defineChain({ id: 33, name: 'regtest', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } });

const Impersonation = suite('account impersonation');
let node: TestNode | undefined;
let peer: TestNode | undefined;
Impersonation.after(async () => {
  await peer?.stop();
  await node?.stop();
});
const url = async () => (node ??= await startTestNode()).url;

let viemHash: `0x${string}`;

Impersonation('viem test actions: impersonateAccount, then sendTransaction as the account is mined with it as sender', async () => {
  const transport = http(await url());
  const test = createTestClient({ mode: 'hardhat', chain: regtest, transport }).extend(publicActions);
  await test.setBalance({ address: WHALE, value: parseEther('10') });
  await test.impersonateAccount({ address: WHALE });
  const wallet = createWalletClient({ account: WHALE, chain: regtest, transport });
  viemHash = await wallet.sendTransaction({ to: TO, value: 5n });
  const receipt = await test.waitForTransactionReceipt({ hash: viemHash });
  assert.equal([receipt.status, receipt.from], ['success', WHALE]);
  assert.is((await test.getTransaction({ hash: viemHash })).from, WHALE);
  assert.is(await test.getBalance({ address: TO }), 5n);
  const frame = await rpc(await url(), 'debug_traceTransaction', [viemHash, { tracer: 'callTracer' }]);
  assert.is(frame.from, WHALE, 'a trace replays it with the same sender');
  await test.stopImpersonatingAccount({ address: WHALE });
  const refused = await rpcError(await url(), 'eth_sendTransaction', [{ from: WHALE, to: TO, value: '0x1' }]);
  assert.equal([refused.code, refused.message], [-32602, `unknown account ${WHALE}: this node holds no key for it`]);
});

Impersonation('ethers: a JSON-RPC signer of an impersonated account sends; anvil_autoImpersonateAccount covers any account', async () => {
  const provider = new ethers.JsonRpcProvider(await url(), 33, { staticNetwork: true, polling: true, pollingInterval: 50 });
  await provider.send('anvil_setBalance', [WHALE, '0xde0b6b3a7640000']);
  assert.is(await provider.send('anvil_impersonateAccount', [WHALE]), null);
  const sent = await new ethers.JsonRpcSigner(provider, WHALE).sendTransaction({ to: TO, value: 7n });
  const receipt = await sent.wait();
  assert.equal([receipt!.status, receipt!.from.toLowerCase()], [1, WHALE]);
  assert.is(await provider.send('hardhat_stopImpersonatingAccount', [WHALE]), true);
  assert.is(await provider.send('hardhat_stopImpersonatingAccount', [WHALE]), false, 'no longer impersonated');

  await provider.send('hardhat_setBalance', [OTHER, '0xde0b6b3a7640000']);
  await provider.send('anvil_autoImpersonateAccount', [true]);
  const other = await (await new ethers.JsonRpcSigner(provider, OTHER).sendTransaction({ to: TO, value: 1n })).wait();
  assert.is(other!.from.toLowerCase(), OTHER);
  await provider.send('anvil_autoImpersonateAccount', [false]);
  assert.match((await rpcError(await url(), 'eth_sendTransaction', [{ from: OTHER, to: TO }])).message, /unknown account/);
  provider.destroy();
});

Impersonation('an impersonated contract sends as Hardhat and Anvil let it: mined, traced, its code kept', async () => {
  const CONTRACT = '0x7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c';
  const code = '0x6001600055'; // SSTORE(0, 1)
  const u = await url();
  await rpc(u, 'hardhat_setCode', [CONTRACT, code]);
  await rpc(u, 'hardhat_setBalance', [CONTRACT, '0xde0b6b3a7640000']);
  await rpc(u, 'hardhat_impersonateAccount', [CONTRACT]);
  const before = BigInt(await rpc(u, 'eth_getBalance', [TO, 'latest']));
  const hash = await rpc<string>(u, 'eth_sendTransaction', [{ from: CONTRACT, to: TO, value: '0x3' }]);
  const receipt = await waitUntil(() => rpc(u, 'eth_getTransactionReceipt', [hash]), { what: 'the contract\'s transaction mined', timeoutMs: 10_000 });
  assert.equal([receipt.status, receipt.from], ['0x1', CONTRACT]);
  assert.is(BigInt(await rpc(u, 'eth_getBalance', [TO, 'latest'])), before + 3n);
  assert.is(await rpc(u, 'eth_getCode', [CONTRACT, 'latest']), code, 'its code stays');
  assert.is(await rpc(u, 'eth_getTransactionCount', [CONTRACT, 'latest']), '0x1');
  const frame = await rpc(u, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
  assert.equal([frame.from, frame.to, frame.value], [CONTRACT, TO, '0x3'], 'a trace replays it');
  await rpc(u, 'hardhat_stopImpersonatingAccount', [CONTRACT]);
  // Not impersonated, an account with code cannot send: refused at once, not left to vanish when its block is built.
  await rpc(u, 'hardhat_setCode', [DEV, code]);
  const refused = await rpcError(u, 'eth_sendTransaction', [{ from: DEV, to: TO, value: '0x1' }]);
  assert.equal([refused.code, refused.message], [-32010, 'invalid sender: the account holds code, so it cannot send transactions (EIP-3607)']);
  await rpc(u, 'hardhat_setCode', [DEV, '0x']);
  assert.is((await rpc(u, 'eth_getTransactionReceipt', [await rpc<string>(u, 'eth_sendTransaction', [{ from: DEV, to: TO, value: '0x1' }])])).status, '0x1');
});

Impersonation('a peer imports the block and reads the same sender from the transaction bytes', async () => {
  // Its own pair of nodes: the account is funded by a transfer (a peer cannot verify hardhat_setBalance's
  // block), and the peer joins afterwards, so it syncs the blocks from the miner.
  const miner = await startTestNode();
  try {
    await rpc(miner.url, 'eth_sendTransaction', [{ from: DEV, to: WHALE, value: '0xde0b6b3a7640000' }]);
    await rpc(miner.url, 'hardhat_impersonateAccount', [WHALE]);
    const hash = await rpc<string>(miner.url, 'eth_sendTransaction', [{ from: WHALE, to: TO, value: '0x5' }]);
    const { blockHash } = await waitUntil(() => rpc(miner.url, 'eth_getTransactionReceipt', [hash]), { what: 'the receipt on the miner' });
    peer = await startTestNode({
      mining: 'off',
      p2p: { host: '127.0.0.1', port: 0, announce: [], bootnodes: [miner.node.p2p.multiaddrs[0]!], minPeers: 1, maxPeers: 8, punishmentMs: 60_000 },
    });
    await waitUntil(async () => (await rpc(peer!.url, 'eth_getBlockByHash', [blockHash, false])) !== null, { what: 'the block on the peer', timeoutMs: 30_000 });
    const tx = await rpc(peer.url, 'eth_getTransactionByHash', [hash]);
    assert.equal([tx.from, tx.r, tx.s], [WHALE, WHALE, '0x1'], 'the sender, and the marker that names it: r = the sender, s = 1');
    assert.is(await rpc(peer.url, 'eth_getBalance', [TO, 'latest']), '0x5');
  } finally {
    await miner.stop();
  }
});

Impersonation('a waiting impersonated transaction survives a restart in the pool\'s journal and is mined with its sender', async () => {
  const dataDir = tempDir();
  const first = await startTestNode({ dataDir, mining: 'off' });
  let second: TestNode | undefined;
  try {
    await rpc(first.url, 'eth_sendTransaction', [{ from: DEV, to: WHALE, value: '0xde0b6b3a7640000' }]);
    await rpc(first.url, 'evm_mine');
    await rpc(first.url, 'hardhat_impersonateAccount', [WHALE]);
    const hash = await rpc<string>(first.url, 'eth_sendTransaction', [{ from: WHALE, to: TO, value: '0x9' }]);
    await first.stop({ keepData: true });
    second = await startTestNode({ dataDir, mining: 'off' });
    assert.is((await rpc(second.url, 'eth_getTransactionByHash', [hash])).from, WHALE, 'back in the pool, from the journal');
    await rpc(second.url, 'evm_mine');
    const receipt = await rpc(second.url, 'eth_getTransactionReceipt', [hash]);
    assert.equal([receipt.status, receipt.from], ['0x1', WHALE]);
  } finally {
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

Impersonation('a marked transaction from outside is refused (-32010): only eth_sendTransaction makes one; a bad address is -32602', async () => {
  const marked = ethers.Transaction.from({
    type: 0, chainId: 33, nonce: 9, gasPrice: 0, gasLimit: 21_000, to: TO, value: 1,
    signature: { r: ethers.zeroPadValue(WHALE, 32), s: ethers.toBeHex(1, 32), v: 27 },
  }).serialized;
  const err = await rpcError(await url(), 'eth_sendRawTransaction', [marked]);
  assert.is(err.code, -32010);
  assert.match(err.message, /s = 1 marks an impersonated transaction/);
  const bad = await rpcError(await url(), 'hardhat_impersonateAccount', ['0x1234']);
  assert.equal([bad.code, /argument 0 \(address\)/.test(bad.message)], [-32602, true], bad.message);
});

Impersonation.run();

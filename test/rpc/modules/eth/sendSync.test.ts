/**
 * eth_sendRawTransactionSync and eth_sendTransactionSync (EIP-7966) on a real node: the receipt in the send's
 * answer, the codes for a transaction that is not mined (4: not in time, 5: cannot be), and viem's sync actions.
 */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createWalletClient, defineChain, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SYNC_WAIT_MAX_MS, SYNC_WAIT_MS, syncWaitMs } from '../../../../src/rpc/transactions.ts';
import { lazyNode } from '../../../helpers/node.ts';

const KEY = '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae';
const signer = new ethers.Wallet(KEY);
const TO = '0x5151515151515151515151515151515151515151';

const { url, call, fails, stop } = lazyNode();
const Sync = suite('sync sends');
Sync.after(stop);

const nonce = async () => Number(await call('eth_getTransactionCount', [signer.address, 'pending']));
const transfer = async (fields: { nonce?: number; value?: bigint; chainId?: number } = {}) =>
  signer.signTransaction({ to: TO, value: 1n, gasLimit: 21_000, gasPrice: 0, chainId: 33, nonce: await nonce(), ...fields });
const hashOf = (raw: string) => ethers.keccak256(raw);

Sync('eth_sendRawTransactionSync answers the receipt of the block the transaction was mined in', async () => {
  const before = BigInt(await call('eth_getBalance', [TO, 'latest']));
  const raw = await transfer({ value: 5n });
  const receipt = await call('eth_sendRawTransactionSync', [raw]);
  assert.is(receipt.transactionHash, hashOf(raw));
  assert.is(receipt.status, '0x1');
  assert.equal(receipt, await call('eth_getTransactionReceipt', [hashOf(raw)]), 'the same receipt eth_getTransactionReceipt answers');
  assert.is(await call('eth_blockNumber'), receipt.blockNumber, 'its block is the head');
  assert.is(BigInt(await call('eth_getBalance', [TO, 'latest'])), before + 5n);
});

Sync('the timeout is a JSON number or a QUANTITY of milliseconds; anything else is -32602', async () => {
  assert.is((await call('eth_sendRawTransactionSync', [await transfer(), 3_000])).status, '0x1');
  assert.is((await call('eth_sendRawTransactionSync', [await transfer(), '0xbb8'])).status, '0x1');
  assert.equal([syncWaitMs(undefined), syncWaitMs(0), syncWaitMs(120), syncWaitMs(3_600_000)], [SYNC_WAIT_MS, SYNC_WAIT_MS, 120, SYNC_WAIT_MAX_MS]);
  for (const bad of [-1, 1.5, 'soon']) {
    const err = await fails('eth_sendRawTransactionSync', [await transfer(), bad]);
    assert.is(err.code, -32602, `timeout ${JSON.stringify(bad)}`);
    assert.match(err.message, /argument 1 \(timeout\)/);
  }
});

Sync('a transaction the pool refuses is answered at once, as eth_sendRawTransaction answers it', async () => {
  const raw = await transfer();
  await call('eth_sendRawTransactionSync', [raw]);
  const again = await fails('eth_sendRawTransactionSync', [raw]);
  const plain = await fails('eth_sendRawTransaction', [raw]);
  assert.is(again.code, -32010);
  assert.equal(again, plain);
  assert.is((await fails('eth_sendRawTransactionSync', [await transfer({ chainId: 1 })])).code, -32010);
  for (const bytes of ['0x1234', '0xc0', '0x']) {
    assert.equal(await fails('eth_sendRawTransactionSync', [bytes]), await fails('eth_sendRawTransaction', [bytes]), `bytes ${bytes}`);
  }
});

Sync('a transaction behind a nonce gap: code 5 with its hash at once, and it stays queued', async () => {
  const next = await nonce();
  const raw = await transfer({ nonce: next + 1 });
  const started = performance.now();
  const err = await fails('eth_sendRawTransactionSync', [raw, 10_000]);
  assert.ok(performance.now() - started < 2_000, 'answered without waiting for the timeout');
  assert.is(err.code, 5);
  assert.is(err.data, hashOf(raw));
  assert.match(err.message, /nonce/);
  assert.equal(await call('txpool_status'), { pending: 0, queued: 1 });
  // The gap filled, both are mined.
  assert.is((await call('eth_sendRawTransactionSync', [await transfer({ nonce: next })])).status, '0x1');
  assert.is((await call('eth_getTransactionReceipt', [hashOf(raw)]))?.status, '0x1');
});

Sync('mining stopped: code 4 with the hash once the timeout passed; the transaction stays pending and is mined later', async () => {
  await call('evm_stopMining');
  try {
    const raw = await transfer();
    const started = performance.now();
    const err = await fails('eth_sendRawTransactionSync', [raw, '0x12c']);
    assert.ok(performance.now() - started >= 250, 'waited for the timeout');
    assert.is(err.code, 4);
    assert.is(err.data, hashOf(raw));
    assert.match(err.message, /wasn't mined in 300 ms/, 'the QUANTITY 0x12c is 300 ms');
    assert.equal(await call('txpool_status'), { pending: 1, queued: 0 });
    await call('evm_mine');
    assert.is((await call('eth_getTransactionReceipt', [hashOf(raw)]))?.status, '0x1');
  } finally {
    await call('evm_startMining');
  }
});

Sync('a transaction that leaves the pool unmined: code 5 with its hash as soon as it leaves', async () => {
  await call('evm_stopMining');
  try {
    const raw = await transfer();
    const started = performance.now();
    const answer = fails('eth_sendRawTransactionSync', [raw, 10_000]);
    await new Promise((r) => setTimeout(r, 100));
    assert.is(await call('hardhat_dropTransaction', [hashOf(raw)]), true);
    const err = await answer;
    assert.ok(performance.now() - started < 5_000, 'answered without waiting for the timeout');
    assert.is(err.code, 5);
    assert.is(err.data, hashOf(raw));
    assert.match(err.message, /left the pool without being mined/);
  } finally {
    await call('evm_startMining');
  }
});

/** Sends `raw` with a long timeout while mining is stopped, does `meanwhile`, and answers the error and how long it took. */
async function stalled(raw: string, meanwhile: () => Promise<unknown>) {
  await call('evm_stopMining');
  try {
    const started = performance.now();
    const answer = fails('eth_sendRawTransactionSync', [raw, 10_000]);
    await new Promise((r) => setTimeout(r, 100));
    await meanwhile();
    const err = await answer;
    return { err, ms: performance.now() - started };
  } finally {
    await call('evm_startMining');
  }
}

Sync('a transaction that falls back behind a nonce gap while it waits: code 5 at once', async () => {
  const next = await nonce();
  const first = await transfer();
  await call('evm_stopMining');
  await call('eth_sendRawTransaction', [first]);
  const second = await transfer({ nonce: next + 1 });
  const { err, ms } = await stalled(second, () => call('hardhat_dropTransaction', [hashOf(first)]));
  assert.ok(ms < 5_000, `answered without waiting for the timeout (${ms} ms)`);
  assert.equal([err.code, err.data], [5, hashOf(second)]);
  assert.match(err.message, /cannot be mined yet/);
  assert.equal(await call('txpool_status'), { pending: 0, queued: 1 }, 'it stays queued');
  await call('eth_sendRawTransactionSync', [await transfer({ nonce: next })]);
});

Sync('a transaction the block refuses (its sender emptied meanwhile): code 5 at once', async () => {
  const raw = await signer.signTransaction({ to: TO, value: 1n, gasLimit: 21_000, gasPrice: 1, chainId: 33, nonce: await nonce() });
  const balance = await call('eth_getBalance', [signer.address, 'latest']);
  try {
    const { err, ms } = await stalled(raw, async () => {
      await call('hardhat_setBalance', [signer.address, '0x0']);
      await call('evm_mine');
    });
    assert.ok(ms < 5_000, `answered without waiting for the timeout (${ms} ms)`);
    assert.equal([err.code, err.data], [5, hashOf(raw)]);
    assert.match(err.message, /left the pool without being mined/);
  } finally {
    await call('hardhat_setBalance', [signer.address, balance]);
  }
});

Sync('a rewind while it waits (evm_revert to before a block): code 5 at once', async () => {
  const id = await call('evm_snapshot');
  await call('eth_sendRawTransactionSync', [await transfer()]);
  const { err, ms } = await stalled(await transfer(), () => call('evm_revert', [id]));
  assert.ok(ms < 5_000, `answered without waiting for the timeout (${ms} ms)`);
  assert.is(err.code, 5);
});

Sync('over WebSocket too', async () => {
  const ws = new WebSocket((await url()).replace('http', 'ws'));
  await new Promise((r, j) => { ws.addEventListener('open', r); ws.addEventListener('error', j); });
  try {
    const raw = await transfer();
    const answer = new Promise<string>((r) => ws.addEventListener('message', (e) => r(String(e.data))));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_sendRawTransactionSync', params: [raw] }));
    const reply = JSON.parse(await answer);
    assert.equal([reply.id, reply.result.transactionHash, reply.result.status], [7, hashOf(raw), '0x1']);
  } finally {
    ws.close();
  }
});

Sync('under interval mining the answer comes with the next block', async () => {
  await call('evm_setIntervalMining', [300]);
  try {
    const head = BigInt(await call('eth_blockNumber'));
    const receipt = await call('eth_sendRawTransactionSync', [await transfer()]);
    assert.is(receipt.status, '0x1');
    assert.ok(BigInt(receipt.blockNumber) > head);
  } finally {
    await call('evm_setAutomine', [true]);
  }
});

Sync('eth_sendTransactionSync signs with a node account and answers the receipt', async () => {
  const [from] = await call<string[]>('eth_accounts');
  const receipt = await call('eth_sendTransactionSync', [{ from, to: TO, value: '0x7' }]);
  assert.is(receipt.status, '0x1');
  assert.is(receipt.from, from);
  assert.equal(receipt, await call('eth_getTransactionReceipt', [receipt.transactionHash]));
});

Sync("viem's sendTransactionSync and sendRawTransactionSync get their receipts in one request", async () => {
  const chain = defineChain({ id: 33, name: 'mmnode regtest', nativeCurrency: { name: 'Native', symbol: 'NAT', decimals: 18 }, rpcUrls: { default: { http: [await url()] } } });
  const wallet = createWalletClient({ chain, transport: http(await url()), account: privateKeyToAccount(KEY) });
  const receipt = await wallet.sendTransactionSync({ to: TO, value: parseEther('0.001') });
  assert.is(receipt.status, 'success');
  assert.is(receipt.to, TO);
  const raw = await transfer();
  const rawReceipt = await wallet.sendRawTransactionSync({ serializedTransaction: raw as `0x${string}` });
  assert.is(rawReceipt.transactionHash, hashOf(raw));
  assert.is(rawReceipt.status, 'success');
});

Sync.run();

/**
 * Under automine a send into an empty pool is answered as soon as the pool has it, and the requests
 * after that answer are held until its block is stored: the first receipt request finds it, and every
 * read, over HTTP or WebSocket, sees the block (src/rpc/inclusion.ts). A transaction behind a nonce gap,
 * one that joins others, or one sent while mining is stopped holds nothing. Block replies kept as JSON
 * text and the head's receipts follow the head, also when evm_revert moves it back.
 */
import { ethers } from 'ethers';
import WebSocket from 'ws';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyChildNode } from '../helpers/node.ts';
import { waitUntil } from '../helpers/rpc.ts';

const KEY = '0x1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75'; // dev account 3
const wallet = new ethers.Wallet(KEY);
const TO = '0x00000000000000000000000000000000000000aa';
const { call, stop, url } = lazyChildNode();

const signed = (nonce: number) => wallet.signTransaction({ type: 0, chainId: 33, nonce, to: TO, value: 1n, gasLimit: 21_000, gasPrice: 0 });
const nonceNow = async () => Number(await call<string>('eth_getTransactionCount', [wallet.address, 'latest']));

const Inclusion = suite('send under automine');
Inclusion.after(stop);

Inclusion('each send of a sequential loop finds its receipt on the first request, one block each', async () => {
  const first = Number(await call<string>('eth_blockNumber'));
  let nonce = await nonceNow();
  for (let i = 0; i < 5; i++) {
    const hash = await call<string>('eth_sendRawTransaction', [await signed(nonce++)]);
    const receipt = await call('eth_getTransactionReceipt', [hash]);
    assert.ok(receipt, `receipt of send ${i} on the first request`);
    assert.is(receipt.status, '0x1');
    assert.is(Number(receipt.blockNumber), first + i + 1);
    // latest is that block, with the transaction in full, also when read again
    for (let read = 0; read < 2; read++) {
      const latest = await call('eth_getBlockByNumber', ['latest', true]);
      assert.is(latest.hash, receipt.blockHash);
      assert.equal(latest.transactions.map((t: { hash: string }) => t.hash), [hash]);
      assert.is(latest.transactions[0].blockHash, receipt.blockHash);
    }
    assert.equal((await call('eth_getBlockByHash', [receipt.blockHash, false])).transactions, [hash]);
  }
});

Inclusion('every request after a send\'s answer sees its block, on any connection, over HTTP and WebSocket', async () => {
  const ws = new WebSocket((await url()).replace('http', 'ws'));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const overWs = (method: string) => new Promise<string>((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data)).result));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method }));
  });
  try {
    for (let i = 0; i < 5; i++) {
      const nonce = await nonceNow();
      const head = Number(await call<string>('eth_blockNumber'));
      const balance = BigInt(await call<string>('eth_getBalance', [TO, 'latest']));
      await call<string>('eth_sendRawTransaction', [await signed(nonce)]);
      // Asked together, right after the answer: each one is held until the block is stored.
      const [number, count, balanceAfter, numberOverWs] = await Promise.all([
        call<string>('eth_blockNumber'), call<string>('eth_getTransactionCount', [wallet.address, 'latest']),
        call<string>('eth_getBalance', [TO, 'latest']), overWs('eth_blockNumber'),
      ]);
      assert.is(Number(number), head + 1);
      assert.is(Number(count), nonce + 1);
      assert.is(BigInt(balanceAfter), balance + 1n);
      assert.is(Number(numberOverWs), head + 1);
    }
  } finally {
    ws.close();
  }
});

Inclusion('a send right after the answer to the one before gets a block of its own, its receipt found at once', async () => {
  const first = Number(await call<string>('eth_blockNumber'));
  const nonce = await nonceNow();
  const hashes: string[] = [];
  for (let i = 0; i < 4; i++) hashes.push(await call<string>('eth_sendRawTransaction', [await signed(nonce + i)]));
  const receipts = await Promise.all(hashes.map((h) => call('eth_getTransactionReceipt', [h])));
  assert.equal(receipts.map((r) => Number(r.blockNumber)), [first + 1, first + 2, first + 3, first + 4]);
});

Inclusion('the receipt of a head block that evm_revert removed is gone, and latest is its parent again', async () => {
  const before = await call('eth_getBlockByNumber', ['latest', true]);
  const snapshot = await call<string>('evm_snapshot');
  const hash = await call<string>('eth_sendRawTransaction', [await signed(await nonceNow())]);
  assert.ok(await call('eth_getTransactionReceipt', [hash]));
  assert.is(await call('evm_revert', [snapshot]), true);
  assert.is(await call('eth_getTransactionReceipt', [hash]), null);
  assert.equal(await call('eth_getBlockByNumber', ['latest', true]), before);
});

Inclusion('a send behind a nonce gap is answered without a receipt, and mined once the gap fills', async () => {
  const nonce = await nonceNow();
  const gapped = await call<string>('eth_sendRawTransaction', [await signed(nonce + 1)]);
  assert.is(await call('eth_getTransactionReceipt', [gapped]), null);
  assert.equal(await call('txpool_status'), { pending: 0, queued: 1 });
  // The filler joins a transaction already in the pool: it is answered at once, and the filled gap
  // makes the other executable too.
  const filler = await call<string>('eth_sendRawTransaction', [await signed(nonce)]);
  for (const hash of [filler, gapped]) await waitUntil(() => call('eth_getTransactionReceipt', [hash]), { what: `receipt of ${hash}` });
});

Inclusion('with mining stopped a send is answered at once and waits in the pool', async () => {
  await call('evm_setAutomine', [false]);
  let hash: string | undefined;
  try {
    hash = await call<string>('eth_sendRawTransaction', [await signed(await nonceNow())]);
    assert.is(await call('eth_getTransactionReceipt', [hash]), null);
    assert.equal((await call('eth_getBlockByNumber', ['pending', false])).transactions, [hash]);
  } finally {
    await call('evm_setAutomine', [true]);
  }
  await waitUntil(() => call('eth_getTransactionReceipt', [hash]), { what: 'the waiting transaction mined once automine is back' });
});

Inclusion.run();

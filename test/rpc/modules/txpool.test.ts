/**
 * txpool_* through the dispatcher on a fake pool answering with real signed transactions: grouped
 * by sender (lowercase, no 0x) and nonce (decimal), in the reference's value formats (gas price
 * and value as Java signed bytes, a creation's `to` as 0x00), and the counts. A real pool's
 * answers over HTTP: test/actors/txpool/pool.test.ts.
 */
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PoolTx, TxPoolProtocol } from '../../../src/actors/txpool/index.ts';
import type { Hex } from '../../../src/chain/codec/bytes.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';
import { fakeRef, fakeRpc } from '../../helpers/fakeRpc.ts';

const Txpool = suite('txpool_*');
const COMMON = createChainCommon(NETWORKS.regtest);
const TO: Hex = '0x09a1eda29f664ac8f68106f6567276df0c65d859';

function pooled(account: number, nonce: bigint, fields: { to?: Hex | ''; value?: bigint; gasPrice?: bigint; gasLimit?: bigint; data?: Hex } = {}): PoolTx {
  const { to = TO, value = 0n, gasPrice = 1n, gasLimit = 21_000n, data = '0x' } = fields;
  const tx = createLegacyTx({ nonce, to: to || undefined, value, gasPrice, gasLimit, data }, { common: COMMON }).sign(DEV_ACCOUNTS[account]!.privateKey);
  return { tx, hash: bytesToHex(tx.hash()) as Hex, sender: bytesToHex(DEV_ACCOUNTS[account]!.address) as Hex, nonce, gasPrice, receivedAtMs: 0 };
}

const A = pooled(0, 0n, { value: 0xffn, gasPrice: 60_000_000n });
const A1 = pooled(0, 1n, { value: 0n, gasPrice: 0x80n });
const B = pooled(1, 4n, { to: '', data: '0x6000', gasLimit: 60_000n, value: 200n, gasPrice: 0n });
const rpc = fakeRpc({ txpool: fakeRef<TxPoolProtocol>('txpool', { 'pool.list': () => ({ pending: [A, A1], queued: [B] }) }) });
const key = (p: PoolTx) => p.sender.slice(2);

Txpool('txpool_content: by sender and nonce, each entry in the reference shape', async () => {
  const content = await rpc.result('txpool_content');
  assert.equal(Object.keys(content), ['pending', 'queued']);
  assert.equal(Object.keys(content.pending), [key(A)], 'one sender, without 0x');
  assert.equal(Object.keys(content.pending[key(A)]), ['0', '1'], 'nonces in decimal');
  assert.equal(content.pending[key(A)]['0'], [{
    blockHash: `0x${'0'.repeat(64)}`, blockNumber: null, transactionIndex: null, from: A.sender, gas: '0x5208',
    gasPrice: '0x03938700', hash: A.hash, input: '0x', nonce: '0x0', to: TO, value: '0x00ff',
  }]);
  const [a1] = content.pending[key(A)]['1'];
  assert.equal([a1.gasPrice, a1.value, a1.nonce], ['0x0080', '0x00', '0x1'], 'a set top bit gets a zero byte ahead; zero is 0x00');
  const [creation] = content.queued[key(B)]['4'];
  assert.equal([creation.to, creation.input, creation.gas, creation.value, creation.gasPrice], ['0x00', '0x6000', '0xea60', '0x00c8', '0x00']);
});

Txpool('txpool_inspect: "<to without 0x>: <value> wei + <gas> x <gas price> gas"', async () => {
  const inspect = await rpc.result('txpool_inspect');
  assert.equal(inspect.pending[key(A)], {
    0: [`${TO.slice(2)}: 255 wei + 21000 x 60000000 gas`],
    1: [`${TO.slice(2)}: 0 wei + 21000 x 128 gas`],
  });
  assert.equal(inspect.queued[key(B)], { 4: [': 200 wei + 60000 x 0 gas'] }, 'a creation has no `to`');
});

Txpool('txpool_status counts the pending and the queued transactions', async () => {
  assert.equal(await rpc.result('txpool_status'), { pending: 2, queued: 1 });
  const empty = fakeRpc({ txpool: fakeRef<TxPoolProtocol>('txpool', { 'pool.list': () => ({ pending: [], queued: [] }) }) });
  assert.equal(await empty.result('txpool_status'), { pending: 0, queued: 0 });
  assert.equal(await empty.result('txpool_content'), { pending: {}, queued: {} });
});

Txpool('txpool_* take no parameters', async () => {
  for (const method of ['txpool_content', 'txpool_inspect', 'txpool_status']) assert.is((await rpc.error(method, ['pending'])).code, -32602, method);
});

Txpool.run();

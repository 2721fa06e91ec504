/**
 * With mining stopped (evm_stopMining) a transaction is pending everywhere a block selector is
 * taken: `pending` state reads, calls and estimates, the pending block itself, txpool_status,
 * eth_pendingTransactions and the pending-transaction filter; and it is mined when mining resumes
 * (evm_startMining).
 */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOOP } from '../helpers/initCode.ts';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { post, rpc, waitUntil } from '../helpers/rpc.ts';
import { compileFixture } from '../helpers/solc.ts';

const DEV = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
const FRESH = '0x3333333333333333333333333333333333333333';
const ZERO32 = `0x${'0'.repeat(64)}`;

const Pending = suite('the pending tag and block');
let node: TestNode | undefined;
Pending.after.each(async () => { await node?.stop(); node = undefined; });

Pending('with mining stopped a transaction is pending everywhere, and mined when mining resumes', async () => {
  node = await startTestNode();
  const url = node.url;
  const call = <T = any>(method: string, params: unknown[] = []) => rpc<T>(url, method, params);
  assert.is(await call('evm_stopMining'), null);
  assert.is(await call('eth_mining'), false);
  const head = await call('eth_getBlockByNumber', ['latest', false]);
  const nonce = BigInt(await call('eth_getTransactionCount', [DEV, 'latest']));
  const filter = await call<string>('eth_newPendingTransactionFilter');

  const { abi, bytecode } = compileFixture('Store.sol', 'Store');
  const iface = new ethers.Interface(abi);
  const deploy = await call<string>('eth_sendTransaction', [{ from: DEV, data: bytecode + iface.encodeDeploy([42n]).slice(2), gas: '0x2dc6c0' }]);
  const pay = await call<string>('eth_sendTransaction', [{ from: DEV, to: FRESH, value: '0x3e8' }]);
  const store = ethers.getCreateAddress({ from: DEV, nonce });

  // State reads: the pending block's state, not latest.
  assert.is(await call('eth_getBalance', [FRESH, 'pending']), '0x3e8');
  assert.is(await call('eth_getBalance', [FRESH, 'latest']), '0x0');
  assert.is(await call('eth_getTransactionCount', [DEV, 'pending']), `0x${(nonce + 2n).toString(16)}`);
  assert.is(await call('eth_getTransactionCount', [DEV, 'latest']), `0x${nonce.toString(16)}`);
  assert.ok((await call<string>('eth_getCode', [store, 'pending'])).length > 100);
  assert.is(await call('eth_getCode', [store, 'latest']), '0x');
  assert.is(await call('eth_getStorageAt', [store, '0x0', 'pending']), `0x${42n.toString(16).padStart(64, '0')}`);
  const proof = await call('eth_getProof', [FRESH, [], 'pending']);
  assert.is(proof.balance, '0x3e8');
  // Calls and estimates run on it too.
  const value = iface.encodeFunctionData('value');
  assert.is(BigInt(await call('eth_call', [{ to: store, data: value }, 'pending'])), 42n);
  assert.is(await call('eth_call', [{ to: store, data: value }, 'latest']), '0x');
  const setData = iface.encodeFunctionData('set', [7n]);
  assert.ok(BigInt(await call('eth_estimateGas', [{ from: DEV, to: store, data: setData }, 'pending'])) > 21_000n);

  // The pending block: on latest, with both transactions, no hash; number, bloom and a zero nonce for Foundry.
  const block = await call('eth_getBlockByNumber', ['pending', false]);
  assert.equal([block.number, block.hash, block.nonce], [`0x${(BigInt(head.number) + 1n).toString(16)}`, null, '0x0000000000000000']);
  assert.is(block.logsBloom.length, 2 + 512);
  assert.is(block.parentHash, head.hash);
  assert.equal(block.transactions, [deploy, pay]);
  assert.ok(BigInt(block.gasUsed) > 21_000n);
  assert.is(BigInt(block.totalDifficulty), BigInt(head.totalDifficulty) + BigInt(block.difficulty));
  const full = await call('eth_getBlockByNumber', ['pending', true]);
  assert.equal(full.transactions.map((t: any) => [t.hash, t.blockHash, t.blockNumber, t.transactionIndex]), [[deploy, null, null, null], [pay, null, null, null]]);
  assert.is(await call('eth_getBlockTransactionCountByNumber', ['pending']), '0x2');
  assert.is(await call('eth_getUncleCountByBlockNumber', ['pending']), '0x0');
  assert.is((await call('eth_getTransactionByBlockNumberAndIndex', ['pending', '0x1'])).hash, pay);
  const rawPending = await call<string>('chain_getRawBlockHeaderByNumber', ['pending']);
  assert.is.not(rawPending, await call('chain_getRawBlockHeaderByNumber', ['latest']));
  assert.ok(rawPending.includes(head.hash.slice(2)), 'the pending header names latest as its parent');
  const traces = await call<any[]>('debug_traceBlockByNumber', ['pending', { tracer: 'callTracer' }]);
  assert.equal(traces.map((t) => t.txHash), [deploy, pay]);
  assert.is(traces[1].result.to, FRESH);

  // The pool, the pending-transaction filter and the node's own pending transactions.
  assert.equal(await call('eth_getFilterChanges', [filter]), [deploy, pay]);
  assert.equal(await call('txpool_status'), { pending: 2, queued: 0 });
  const mine = await call<any[]>('eth_pendingTransactions');
  assert.equal(mine.map((t) => [t.hash, t.blockHash, t.blockNumber]), [[deploy, ZERO32, null], [pay, ZERO32, null]]);
  assert.is((await call('eth_getTransactionByHash', [pay])).blockHash, null);
  assert.is(await call('eth_getTransactionReceipt', [pay]), null);
  assert.is(await call('eth_blockNumber'), head.number, 'nothing was mined');

  // Mining resumes: both are mined, the pool empties, and pending reads match latest again.
  assert.is(await call('evm_startMining'), null);
  assert.is(await call('eth_mining'), true);
  const receipt = await waitUntil(() => call('eth_getTransactionReceipt', [pay]), { what: 'the transfer mined' });
  assert.is(receipt.status, '0x1');
  assert.is((await call('eth_getTransactionReceipt', [deploy])).contractAddress, store.toLowerCase());
  assert.equal(await call('txpool_status'), { pending: 0, queued: 0 });
  assert.equal(await call('eth_pendingTransactions'), []);
  assert.is(await call('eth_getBalance', [FRESH, 'latest']), '0x3e8');
  assert.equal((await call('eth_getBlockByNumber', ['pending', false])).transactions, []);
});

Pending('calls and traces at pending run on the RPC workers, each on the pending block of its moment', async () => {
  node = await startTestNode({ rpcWorkers: 1, rpcGasCap: 10n ** 12n });
  const url = node.url;
  const call = <T = any>(method: string, params: unknown[] = []) => rpc<T>(url, method, params);
  await call('evm_stopMining');
  const { abi, bytecode } = compileFixture('Store.sol', 'Store');
  const iface = new ethers.Interface(abi);
  const nonce = BigInt(await call('eth_getTransactionCount', [DEV, 'latest']));
  await call('eth_sendTransaction', [{ from: DEV, data: bytecode + iface.encodeDeploy([42n]).slice(2), gas: '0x2dc6c0' }]);
  const store = ethers.getCreateAddress({ from: DEV, nonce });
  const value = iface.encodeFunctionData('value');
  assert.is(BigInt(await call('eth_call', [{ to: store, data: value }, 'pending'])), 42n);
  assert.is(node.node.workers.stats().workers, 1, 'a worker answered');
  // The pending block changes: the next call sees the new one.
  await call('eth_sendTransaction', [{ from: DEV, to: store, data: iface.encodeFunctionData('set', [7n]) }]);
  assert.is(BigInt(await call('eth_call', [{ to: store, data: value }, 'pending'])), 7n);
  assert.is(BigInt(await call('eth_call', [{ to: store, data: value }, 'pending'])), 7n, 'the same pending block again');
  // A call at pending that never ends holds the worker until its deadline, not the main thread.
  const order: string[] = [];
  const looped = post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params: [{ data: LOOP }, 'pending', { tracer: 'callTracer', timeout: '2s' }] }))
    .then(({ json }) => { order.push('loop'); return json; });
  while (node.node.workers.stats().running === 0) await new Promise((r) => setTimeout(r, 5));
  assert.is(await call('eth_blockNumber'), '0x0');
  order.push('blockNumber');
  const answer = await looped;
  assert.equal(order, ['blockNumber', 'loop']);
  assert.is(answer.error.code, -32005);
  assert.match(answer.error.message, /debug_traceCall did not finish within 2000 ms/);
});

Pending.run();

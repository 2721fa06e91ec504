/**
 * evm_* developer controls over JSON-RPC: snapshot and revert restore balances,
 * nonces and the head and drop the pool; reset goes back to genesis; mining on demand, stopping and
 * starting it; moving the next block's time. Bad numbers are -32602 and change nothing; bad snapshot
 * ids and what each control asks of the chain and miner: evm.unit.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, type TestNode } from '../../helpers/node.ts';
import { rpc, rpcError, waitUntil } from '../../helpers/rpc.ts';

const DEV = '0x7986b3df570230288501eea3d890bd66948c9b79';
const TO = '0x4444444444444444444444444444444444444444';

const Evm = suite('evm_* developer controls');
let node: TestNode | undefined;
Evm.after(async () => { await node?.stop(); });

const url = async () => (node ??= await startTestNode()).url;
const call = async <T = any>(method: string, params: unknown[] = []) => rpc<T>(await url(), method, params);
const fails = async (method: string, params: unknown[]) => rpcError(await url(), method, params);

async function pay(value: string, nonce?: bigint) {
  const tx = { from: DEV, to: TO, value, ...(nonce === undefined ? {} : { nonce: `0x${nonce.toString(16)}` }) };
  const hash = await call<string>('eth_sendTransaction', [tx]);
  await waitUntil(() => call('eth_getTransactionReceipt', [hash]), { what: `receipt of ${hash}` });
  return hash;
}
const view = async () => ({
  head: await call('eth_getBlockByNumber', ['latest', false]).then((b) => [b.number, b.hash]),
  balance: await call('eth_getBalance', [TO, 'latest']),
  nonce: await call('eth_getTransactionCount', [DEV, 'latest']),
});

Evm('snapshot and revert restore balances, nonces and the head, and drop the pool', async () => {
  await pay('0x1');
  const saved = await view();
  assert.is(await call('evm_snapshot'), '0x1');
  const gone = await pay('0x10');
  const afterFirst = await view();
  assert.is(await call('evm_snapshot'), '0x2');
  await pay('0x100');
  const queued = await call<string>('eth_sendTransaction', [{ from: DEV, to: TO, value: '0x1', nonce: '0x20' }]);
  assert.equal(await call('txpool_status'), { pending: 0, queued: 1 });

  assert.is(await call('evm_revert', ['0x1']), true);
  assert.equal(await view(), saved);
  assert.is(await call('eth_getTransactionReceipt', [gone]), null);
  assert.is(await call('eth_getTransactionByHash', [gone]), null);
  assert.is(await call('eth_getBlockByHash', [afterFirst.head[1], false]), null, 'blocks above the snapshot are gone');
  assert.is(await call('eth_getBlockByNumber', [afterFirst.head[0], false]), null);
  assert.equal(await call('txpool_status'), { pending: 0, queued: 0 });
  assert.is(await call('eth_getTransactionByHash', [queued]), null);

  // The chain goes on from there; the nonce of the reverted transfer is free again.
  await pay('0x7', BigInt(saved.nonce));
  assert.is(await call('eth_getBalance', [TO, 'latest']), `0x${(BigInt(saved.balance) + 7n).toString(16)}`);
  // Later snapshots are discarded; the reverted one stays usable.
  const err = await fails('evm_revert', ['0x2']);
  assert.is(err.code, -32602);
  assert.match(err.message, /unknown snapshot id 0x2: ids 0x1 to 0x1 exist/);
  assert.is(await call('evm_revert', ['0x1']), true);
  assert.equal(await view(), saved);
  // A snapshot at the head has nothing to undo, and answers true as Hardhat does (its fixtures revert after every test).
  assert.is(await call('evm_revert', ['0x1']), true);
  assert.equal(await view(), saved);
});

Evm('blocks a revert removed are gone for good: no block after it takes them as uncles', async () => {
  await pay('0x1');
  const id = await call<string>('evm_snapshot');
  const start = BigInt(await call('eth_blockNumber'));
  const coinbase = (await call('eth_getBlockByNumber', ['latest', false])).miner;
  const mineThree = async () => {
    for (const value of ['0x2', '0x3', '0x4']) await pay(value);
    const blocks = await Promise.all([1n, 2n, 3n].map((i) => call('eth_getBlockByNumber', [`0x${(start + i).toString(16)}`, false])));
    return { uncles: blocks.map((b) => b.uncles), earned: await call('eth_getBalance', [coinbase, 'latest']) };
  };
  const first = await mineThree();
  assert.is(await call('evm_revert', [id]), true);
  const again = await mineThree();
  assert.equal(again.uncles, [[], [], []], 'the reverted blocks are not uncles of the new ones');
  assert.is(again.earned, first.earned, 'the coinbase earns what it earned the first time: no uncle rewards');
});

Evm('concurrent dev controls run one after the other: the first revert rewinds, the others find nothing left to undo', async () => {
  await pay('0x5');
  const id = await call<string>('evm_snapshot');
  const saved = await view();
  await pay('0x6');
  await pay('0x7');
  const reverts = await Promise.all([1, 2, 3].map(() => call('evm_revert', [id])));
  assert.equal(reverts, [true, true, true]);
  assert.equal(await view(), saved);

  const number = BigInt(await call('eth_blockNumber'));
  assert.equal(await Promise.all([1, 2, 3].map(() => call('evm_mine'))), [null, null, null]);
  assert.is(BigInt(await call('eth_blockNumber')), number + 3n, 'each evm_mine mined its own block');

  const mixed = await Promise.all([call('evm_reset'), call('evm_reset'), call('evm_snapshot'), call('evm_reset')]);
  assert.equal(mixed, [null, null, '0x1', null], 'the snapshot taken between two resets gets the first id again');
  assert.is(await call('eth_blockNumber'), '0x0');
  assert.match((await fails('evm_revert', ['0x1'])).message, /no snapshot was taken/);
});

Evm('evm_mine mines on demand while mining is stopped; evm_increaseTime moves the next block\'s time', async () => {
  assert.is(await call('evm_stopMining'), null);
  const number = BigInt(await call('eth_blockNumber'));
  const hash = await call<string>('eth_sendTransaction', [{ from: DEV, to: TO, value: '0x2' }]);
  assert.is(await call('eth_getTransactionReceipt', [hash]), null);
  assert.is(await call('evm_increaseTime', ['0xe10']), '0xe10');
  assert.is(await call('evm_increaseTime', [3600]), '0x1c20', 'offsets add up');
  assert.is(await call('evm_increaseTime', ['-5']), '0x1c20', 'a value ≤ 0 leaves it');
  const err = await fails('evm_increaseTime', ['soon']);
  assert.is(err.code, -32602);
  assert.match(err.message, /invalid number of seconds "soon"/);
  const tooFar = await fails('evm_increaseTime', ['0xffffffffffffffff']);
  assert.is(tooFar.code, -32602);
  assert.match(tooFar.message, /invalid number of seconds 0xffffffffffffffff: the next block's time would pass 2\^32 - 1 .*the offset is 0x1c20/);

  const beforeMs = Date.now();
  assert.is(await call('evm_mine'), null);
  assert.is(BigInt(await call('eth_blockNumber')), number + 1n);
  const receipt = await call('eth_getTransactionReceipt', [hash]);
  assert.is(receipt.status, '0x1');
  const block = await call('eth_getBlockByNumber', ['latest', false]);
  assert.ok(BigInt(block.timestamp) >= BigInt(Math.floor(beforeMs / 1000)) + 7200n, `timestamp ${BigInt(block.timestamp)} carries the offset`);
  // A running offset (as Hardhat and Anvil): the next increase adds to it, even while blocks sit at parent + 1.
  assert.is(await call('evm_increaseTime', ['0x0']), '0x1c20', 'the offset stays after a block');
  assert.is(await call('evm_increaseTime', [60]), '0x1c5c');
  assert.is(await call('evm_mine'), null);
  assert.is(BigInt(await call('eth_blockNumber')), number + 2n, 'an empty block too');
  const next = await call('eth_getBlockByNumber', ['latest', false]);
  assert.ok(BigInt(next.timestamp) >= BigInt(Math.floor(beforeMs / 1000)) + 7260n, `timestamp ${BigInt(next.timestamp)} carries both increases`);
  // Past 2^32 - 1 (the parent-chain header's time field) is refused, and the miner goes on.
  assert.is((await fails('evm_increaseTime', [2 ** 32])).code, -32602);
  assert.is(await call('evm_mine'), null);
  assert.is(BigInt(await call('eth_blockNumber')), number + 3n);
  assert.is(await call('evm_startMining'), null);
});

Evm('evm_reset goes back to genesis and clears the snapshots and the time offset', async () => {
  await pay('0x3');
  await call('evm_snapshot');
  await call('evm_increaseTime', [100]);
  assert.is(await call('evm_reset'), null);
  assert.is(await call('evm_increaseTime', [0]), '0x0');
  assert.is(await call('eth_blockNumber'), '0x0');
  assert.is(await call('eth_getBalance', [TO, 'latest']), '0x0');
  assert.is(await call('eth_getTransactionCount', [DEV, 'latest']), '0x0');
  assert.match((await fails('evm_revert', ['0x1'])).message, /no snapshot was taken/);
  assert.is(await call('evm_snapshot'), '0x1', 'ids start again at 0x1');
  await pay('0x4');
  assert.is(await call('eth_blockNumber'), '0x1');
});

Evm('evm_revert takes the block clock back to the snapshot: time a test moved forward is undone for the next', async () => {
  await call('evm_reset');
  await pay('0x1');
  const id = await call('evm_snapshot');
  const latestTime = async () => BigInt((await call('eth_getBlockByNumber', ['latest', false])).timestamp);
  const at = await latestTime();
  // As Hardhat's time.increaseTo does it: the next block's time, then a block; then an increase on top.
  const yearLater = at + 365n * 86_400n;
  assert.is(await call('evm_setNextBlockTimestamp', [Number(yearLater)]), null);
  await call('evm_mine');
  await call('evm_increaseTime', [3600]);
  await pay('0x2');
  assert.ok(await latestTime() >= yearLater + 3600n);
  assert.is(await call('evm_revert', [id]), true);
  assert.is(await call('evm_increaseTime', [0]), '0x0', 'no offset forward of the real clock');
  await pay('0x3');
  const after = await latestTime();
  assert.ok(after > at && after <= at + 2n, `the block after the revert has time ${after}, right after the snapshot's ${at}`);
});

Evm.run();

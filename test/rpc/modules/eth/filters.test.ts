/**
 * Polling filters on a real node: QUANTITY ids, changes since the previous poll, block and
 * pending-transaction filters, eth_getFilterLogs, uninstall, expiry with a short idle timeout, and
 * bad input that leaves every installed filter working.
 */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { topic } from '../../../helpers/logChain.ts';
import { startTestNode, type TestNode } from '../../../helpers/node.ts';
import { rpc, rpcError } from '../../../helpers/rpc.ts';
import { compileFixture } from '../../../helpers/solc.ts';

const DEV_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const A = topic(0xa1);
const B = topic(0xb2);
const QUANTITY = /^0x[1-9a-f][0-9a-f]*$/;

const Filters = suite('polling filters');
let node: TestNode;
let provider: ethers.JsonRpcProvider;
let wallet: ethers.Wallet;
let logger: ethers.Contract;

Filters.after(async () => { provider?.destroy(); await node?.stop(); });

const call = <T = any>(method: string, params: unknown[] = []) => rpc<T>(node.url, method, params);
const fails = (method: string, params: unknown[] = []) => rpcError(node.url, method, params);
/** Sends one log with these topics and waits for its block; returns the receipt. */
const log = async (topics: string[], data = '0x') => (await (await logger.raw!(topics, data)).wait())!;

let ready: Promise<void> | undefined;
/** The node and a deployed Logger, started by whichever test runs first; every test makes the logs it reads. */
const setup = () => (ready ??= (async () => {
  node = await startTestNode();
  provider = new ethers.JsonRpcProvider(node.url, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
  wallet = new ethers.Wallet(DEV_KEY, provider);
  const { abi, bytecode } = compileFixture('Logger.sol', 'Logger');
  logger = (await (await new ethers.ContractFactory(abi, bytecode, wallet).deploy()).waitForDeployment()) as ethers.Contract;
})());
Filters.before.each(setup);

Filters('ids are distinct QUANTITY values', async () => {
  const ids = [await call('eth_newFilter', [{}]), await call('eth_newBlockFilter'), await call('eth_newPendingTransactionFilter'), await call('eth_newFilter', [{}])];
  for (const id of ids) assert.match(id, QUANTITY);
  assert.is(new Set(ids).size, ids.length);
  for (const id of ids) assert.is(await call('eth_uninstallFilter', [id]), true);
});

Filters('a log filter returns what matched since the previous poll, then nothing', async () => {
  const onlyA = await call<string>('eth_newFilter', [{ address: await logger.getAddress(), topics: [A] }]);
  assert.equal(await call('eth_getFilterChanges', [onlyA]), []);
  const r1 = await log([A], '0x01');
  await log([B], '0x02');
  const r3 = await log([A, B], '0x03');
  const changes = await call<any[]>('eth_getFilterChanges', [onlyA]);
  assert.equal(changes.map((l) => l.data), ['0x01', '0x03']);
  assert.equal(changes.map((l) => l.transactionHash), [r1.hash, r3.hash]);
  assert.ok(changes.every((l) => l.removed === false));
  assert.equal(await call('eth_getFilterChanges', [onlyA]), [], 'nothing new since the last poll');
  // Leading zeros name the same filter.
  assert.equal(await call('eth_getFilterChanges', [onlyA.replace('0x', '0x000')]), []);
});

Filters('eth_getFilterLogs returns every log the filter matches, history included', async () => {
  const H = topic(0xd1);
  const address = await logger.getAddress();
  for (const data of ['0x01', '0x02', '0x03']) await log([H], data);
  const fromStart = await call<string>('eth_newFilter', [{ fromBlock: '0x0', address, topics: [H] }]);
  const all = await call<any[]>('eth_getFilterLogs', [fromStart]);
  assert.equal(all.map((l) => l.data), ['0x01', '0x02', '0x03']);
  assert.equal(await call('eth_getFilterLogs', [fromStart]), all, 'reading does not consume');
  // From `latest`, the logs of the block that is latest when it is read.
  const fromLatest = await call<string>('eth_newFilter', [{ address }]);
  assert.equal((await call<any[]>('eth_getFilterLogs', [fromLatest])).map((l) => l.data), ['0x03']);
  // A fixed range ending before new blocks gets nothing new from them.
  const head = await call<string>('eth_blockNumber');
  const fixed = await call<string>('eth_newFilter', [{ fromBlock: '0x0', toBlock: head }]);
  await log([H], '0x04');
  assert.equal(await call('eth_getFilterChanges', [fixed]), []);
  assert.equal((await call<any[]>('eth_getFilterChanges', [fromStart])).map((l) => l.data), ['0x04']);
});

Filters('a block filter returns the hashes of new blocks, in order', async () => {
  const id = await call<string>('eth_newBlockFilter');
  assert.equal(await call('eth_getFilterChanges', [id]), []);
  const r1 = await log([B]);
  const r2 = await log([B]);
  assert.equal(await call('eth_getFilterChanges', [id]), [r1.blockHash, r2.blockHash]);
  assert.equal(await call('eth_getFilterChanges', [id]), []);
  const err = await fails('eth_getFilterLogs', [id]);
  assert.is(err.code, -32602);
  assert.match(err.message, /is a block filter; eth_getFilterLogs reads log filters/);
});

Filters('a pending-transaction filter returns the hashes of transactions entering the pool', async () => {
  const id = await call<string>('eth_newPendingTransactionFilter');
  const tx1 = await wallet.sendTransaction({ to: ethers.ZeroAddress, value: 1 });
  const tx2 = await wallet.sendTransaction({ to: ethers.ZeroAddress, value: 2 });
  await Promise.all([tx1.wait(), tx2.wait()]);
  assert.equal(await call('eth_getFilterChanges', [id]), [tx1.hash, tx2.hash]);
  assert.equal(await call('eth_getFilterChanges', [id]), []);
});

Filters('uninstall answers true, then false; the id is then "filter not found"', async () => {
  const id = await call<string>('eth_newFilter', [{}]);
  assert.is(await call('eth_uninstallFilter', [id]), true);
  assert.is(await call('eth_uninstallFilter', [id]), false);
  for (const method of ['eth_getFilterChanges', 'eth_getFilterLogs']) {
    const err = await fails(method, [id]);
    assert.is(err.code, -32000);
    assert.match(err.message, new RegExp(`^filter not found: ${id} \\(it was uninstalled\\)`));
  }
});

Filters('an id never issued is "filter not found"; a malformed one is -32602', async () => {
  const err = await fails('eth_getFilterChanges', ['0x1234']);
  assert.is(err.code, -32000);
  assert.match(err.message, /^filter not found: 0x1234 \(it was never installed/);
  assert.is(await call('eth_uninstallFilter', ['0x1234']), false);
  for (const bad of ['xyz', 12, '0x', null, { id: 1 }]) {
    for (const method of ['eth_getFilterChanges', 'eth_getFilterLogs', 'eth_uninstallFilter']) {
      const e = await fails(method, [bad]);
      assert.is(e.code, -32602, `${method}(${JSON.stringify(bad)})`);
      assert.match(e.message, /invalid argument 0 \(filterId\): expected a hex quantity/);
    }
  }
});

Filters('bad filter objects are -32602 and leave every installed filter working', async () => {
  const keeper = await call<string>('eth_newFilter', [{ topics: [A] }]);
  const cases: [unknown[], RegExp][] = [
    [[], /expected a filter object/],
    [[{ blockHash: `0x${'11'.repeat(32)}` }], /blockHash is accepted by eth_getLogs only/],
    [[{ address: '0xabc' }], /address: expected a 20-byte address/],
    [[{ topics: [[A, '0x01']] }], /topics\[0\]\[1\]: expected a 32-byte hash/],
    [[{ topics: [A, A, A, A, A] }], /at most 4 topic positions/],
    [[{ fromBlock: '0x9', toBlock: '0x3' }], /fromBlock 0x9 is after toBlock 0x3/],
    [[{ fromBlock: 'justified' }], /fromBlock: expected a block number/],
  ];
  for (const [params, message] of cases) {
    const err = await fails('eth_newFilter', params);
    assert.is(err.code, -32602, JSON.stringify(params));
    assert.match(err.message, message);
  }
  for (const method of ['eth_newBlockFilter', 'eth_newPendingTransactionFilter']) {
    assert.is((await fails(method, [{}])).code, -32602, `${method} takes no parameters`);
  }
  await log([A], '0x05');
  assert.equal((await call<any[]>('eth_getFilterChanges', [keeper])).map((l) => l.data), ['0x05']);
});

Filters('evm_revert: the reverted logs come back removed, and history forgets them', async () => {
  const id = await call<string>('eth_newFilter', [{ topics: [B] }]);
  const snapshot = await call<string>('evm_snapshot');
  const reverted = await log([B], '0x0b');
  assert.equal((await call<any[]>('eth_getFilterChanges', [id])).map((l) => [l.data, l.removed]), [['0x0b', false]]);
  assert.is(await call('evm_revert', [snapshot]), true);
  // The reverted block and its receipts are deleted: the filter still reports what it had handed out.
  assert.equal((await call<any[]>('eth_getFilterChanges', [id])).map((l) => [l.data, l.removed, l.blockHash]), [['0x0b', true, reverted.blockHash]]);
  const replacement = await log([B], '0x0c');
  assert.is(replacement.blockNumber, reverted.blockNumber, 'the same height, another block');
  assert.equal((await call<any[]>('eth_getFilterChanges', [id])).map((l) => [l.data, l.removed]), [['0x0c', false]]);
  const atHeight = ethers.toQuantity(reverted.blockNumber);
  assert.equal((await call<any[]>('eth_getLogs', [{ fromBlock: atHeight, toBlock: atHeight }])).map((l) => l.data), ['0x0c']);
});

Filters('`pending`: the pending block\'s logs, without position, in eth_getLogs, eth_getFilterLogs and once in eth_getFilterChanges', async () => {
  const P = topic(0xc1);
  const address = (await logger.getAddress()).toLowerCase();
  const toPending = await call<string>('eth_newFilter', [{ toBlock: 'pending', topics: [P] }]);
  const toLatest = await call<string>('eth_newFilter', [{ topics: [P] }]);
  await call('evm_stopMining');
  const sent = await logger.raw!([P], '0x51');
  const pendingLog = { logIndex: null, transactionIndex: null, transactionHash: null, blockHash: null, blockNumber: null, address, data: '0x51', topics: [P] };
  assert.equal(await call('eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending', topics: [P] }]), [pendingLog]);
  assert.equal(await call('eth_getLogs', [{ fromBlock: 'latest', toBlock: 'pending', topics: [P] }]), [pendingLog]);
  assert.equal(await call('eth_getLogs', [{ topics: [P] }]), [], 'latest alone holds no pending log');
  assert.equal(await call('eth_getFilterLogs', [toPending]), [{ removed: false, ...pendingLog }]);
  assert.equal(await call('eth_getFilterChanges', [toPending]), [{ removed: false, ...pendingLog }]);
  assert.equal(await call('eth_getFilterChanges', [toPending]), [], 'a pending log is reported once');
  assert.equal(await call('eth_getFilterChanges', [toLatest]), [], 'a filter ending at latest sees no pending log');

  await call('evm_startMining');
  const receipt = (await sent.wait())!;
  const mined = await call<any[]>('eth_getFilterChanges', [toPending]);
  assert.equal(mined.map((l) => [l.data, l.transactionHash, l.blockNumber, l.removed]), [['0x51', receipt.hash, ethers.toQuantity(receipt.blockNumber), false]]);
  assert.equal(await call('eth_getFilterChanges', [toLatest]), mined);
  assert.equal(await call('eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending', topics: [P] }]), []);
  const { removed: _, ...plain } = mined[0];
  assert.equal((await call('eth_getTransactionReceipt', [receipt.hash])).logs, [plain], 'receipt logs have no `removed`');
});

Filters('a filter nobody polls expires after the idle timeout: "filter not found"', async () => {
  const quick = await startTestNode({ filterTimeoutMs: 200 });
  try {
    const id = await rpc<string>(quick.url, 'eth_newBlockFilter');
    // Any poll would keep it alive, so nothing probes it: the node runs in this process, and its
    // 200 ms idle timer, set first, fires before this longer one (timers of equal kind run in order).
    await new Promise((resolve) => setTimeout(resolve, 250));
    const err = await rpcError(quick.url, 'eth_getFilterChanges', [id]);
    assert.is(err.code, -32000);
    assert.match(err.message, /^filter not found: 0x[0-9a-f]+ \(it expired: not polled with eth_getFilterChanges for 0.2 s\)$/);
    assert.is(await rpc(quick.url, 'eth_uninstallFilter', [id]), false);
  } finally {
    await quick.stop();
  }
});

Filters.run();

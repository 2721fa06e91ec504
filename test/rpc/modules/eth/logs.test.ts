/**
 * eth_getLogs on a real node: the topic table row by row, addresses, block hash (both
 * spellings) or range, defaults, and every kind of bad input answered -32602 naming the problem.
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
const C = topic(0xc3);

const Logs = suite('eth_getLogs');
let node: TestNode;
let provider: ethers.JsonRpcProvider;
let logger: ethers.Contract;
let other: ethers.Contract;
/** The block holding the log with topics [A, B] (and one with [A, B, C] from the other contract). */
let abBlock: { number: string; hash: string };

Logs.after(async () => { provider?.destroy(); await node?.stop(); });

const getLogs = (filter: unknown) => rpc<any[]>(node.url, 'eth_getLogs', [filter]);
const fails = (params: unknown[]) => rpcError(node.url, 'eth_getLogs', params);

Logs('setup: two Logger contracts, and blocks of logs', async () => {
  node = await startTestNode();
  provider = new ethers.JsonRpcProvider(node.url, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
  const wallet = new ethers.Wallet(DEV_KEY, provider);
  const { abi, bytecode } = compileFixture('Logger.sol', 'Logger');
  const factory = new ethers.ContractFactory(abi, bytecode, wallet);
  logger = (await (await factory.deploy()).waitForDeployment()) as ethers.Contract;
  other = (await (await factory.deploy()).waitForDeployment()) as ethers.Contract;
  // The node packs what arrives meanwhile into one block: send both, then wait for both.
  const nonce = await provider.getTransactionCount(wallet.address, 'pending');
  const sent = await Promise.all([
    logger.raw!([A, B], '0x01', { nonce }),
    other.raw!([A, B, C], '0x02', { nonce: nonce + 1 }),
  ]);
  const [r1, r2] = await Promise.all(sent.map((tx) => tx.wait()));
  assert.is(r1.blockNumber, r2.blockNumber, 'both logs in one block');
  abBlock = { number: ethers.toQuantity(r1.blockNumber), hash: r1.blockHash };
  await (await logger.raw!([B, A], '0x03')).wait();
  await (await logger.raw!([C], '0x04')).wait();
});

Logs('the topic table, row by row, for a log with topics [A, B]', async () => {
  const address = await logger.getAddress();
  const at = { fromBlock: abBlock.number, toBlock: abBlock.number, address };
  const rows: [string, unknown[], boolean][] = [
    ['[] matches anything', [], true],
    ['[A] matches A first', [A], true],
    ['[null, B] matches anything first and B second', [null, B], true],
    ['[A, B] matches both', [A, B], true],
    ['[[A, B], [A, B]] matches (A or B) first and (A or B) second', [[A, B], [A, B]], true],
    ['[B] does not match: B is not first', [B], false],
    ['[null, A] does not match: A is not second', [null, A], false],
    ['[A, B, C] does not match: the log has no third topic', [A, B, C], false],
    ['[[B, C]] does not match: neither is first', [[B, C]], false],
  ];
  for (const [row, topics, matches] of rows) {
    const logs = await getLogs({ ...at, topics });
    assert.is(logs.length, matches ? 1 : 0, row);
    if (matches) assert.equal(logs[0].topics, [A, B], row);
  }
  // Extra topics after the filter's length always match: the [A, B, C] log of the other contract.
  const both = await getLogs({ fromBlock: abBlock.number, toBlock: abBlock.number, topics: [A, B] });
  assert.equal(both.map((l: any) => l.topics.length), [2, 3]);
  // An empty list or null among the alternatives leaves a position open.
  assert.is((await getLogs({ ...at, topics: [[], B] })).length, 1);
  assert.is((await getLogs({ ...at, topics: [[C, null], B] })).length, 1);
});

Logs('log objects carry their chain position, as receipts show them; `removed` is for filter results only ', async () => {
  const [first, second] = await getLogs({ blockHash: abBlock.hash });
  assert.equal(Object.keys(first), ['logIndex', 'transactionIndex', 'transactionHash', 'blockHash', 'blockNumber', 'address', 'data', 'topics']);
  assert.is(first.logIndex, '0x0');
  assert.is(second.logIndex, '0x1');
  assert.is(second.transactionIndex, '0x1');
  assert.is(second.blockHash, abBlock.hash);
  assert.is(second.blockNumber, abBlock.number);
  assert.is(second.address, (await other.getAddress()).toLowerCase());
  assert.is(second.data, '0x02');
  const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [second.transactionHash]);
  assert.equal(receipt.logs, [second]);
});

Logs('one address or many', async () => {
  const [l, o] = [(await logger.getAddress()).toLowerCase(), (await other.getAddress()).toLowerCase()];
  const all = await getLogs({ fromBlock: '0x0', toBlock: 'latest' });
  assert.is(all.length, 4);
  assert.is((await getLogs({ fromBlock: '0x0', address: l })).length, 3);
  assert.is((await getLogs({ fromBlock: '0x0', address: [o] })).length, 1);
  assert.is((await getLogs({ fromBlock: '0x0', address: [l, o] })).length, 4);
  assert.is((await getLogs({ fromBlock: '0x0', address: o.toUpperCase().replace('0X', '0x') })).length, 1, 'any case');
  assert.is((await getLogs({ fromBlock: '0x0', address: [] })).length, 4, 'an empty list is any address');
});

Logs('blockHash (or blockhash) selects one block; no range means the latest block', async () => {
  assert.is((await getLogs({ blockHash: abBlock.hash })).length, 2);
  assert.is((await getLogs({ blockhash: abBlock.hash })).length, 2);
  assert.is((await getLogs({ blockHash: abBlock.hash, topics: [C] })).length, 0);
  const latest = await getLogs({});
  assert.is(latest.length, 1);
  assert.is(latest[0].data, '0x04');
  assert.equal(await getLogs({ fromBlock: 'earliest', toBlock: 'earliest' }), []);
  assert.is((await getLogs({ fromBlock: 'latest', toBlock: 'pending' })).length, 1);
});

Logs('a range past the head is cut to it; one starting past it is empty', async () => {
  const head = BigInt(await rpc(node.url, 'eth_blockNumber'));
  assert.is((await getLogs({ fromBlock: '0x0', toBlock: ethers.toQuantity(head + 100n) })).length, 4);
  assert.equal(await getLogs({ fromBlock: ethers.toQuantity(head + 1n) }), []);
  assert.equal(await getLogs({ fromBlock: ethers.toQuantity(head + 1n), toBlock: ethers.toQuantity(head + 5n) }), []);
});

Logs('bad input is -32602 naming the problem', async () => {
  const cases: [unknown[], RegExp][] = [
    [[], /missing argument 0 \(filter\): expected a filter object/],
    [['latest'], /expected a filter object/],
    [[[]], /expected a filter object/],
    [[{ blockHash: abBlock.hash, fromBlock: '0x1' }], /Cannot specify both blockHash and fromBlock\/toBlock/],
    [[{ blockhash: abBlock.hash, toBlock: 'latest' }], /Cannot specify both blockHash and fromBlock\/toBlock/],
    [[{ blockHash: abBlock.hash, blockhash: `0x${'00'.repeat(32)}` }], /blockHash and blockhash are both given and differ/],
    [[{ blockHash: '0x1234' }], /filter\)\.blockHash: expected a 32-byte hash/],
    [[{ address: '0x1234' }], /filter\)\.address: expected a 20-byte address/],
    [[{ address: ['0x0000000000000000000000000000000000000001', 7] }], /filter\)\.address\[1\]: expected a 20-byte address/],
    [[{ address: 5 }], /filter\)\.address: expected an address or an array of addresses/],
    [[{ topics: '0x00' }], /filter\)\.topics: expected an array of topic positions/],
    [[{ topics: [A.slice(0, 10)] }], /filter\)\.topics\[0\]: expected a 32-byte hash/],
    [[{ topics: [[A, 'zz']] }], /filter\)\.topics\[0\]\[1\]: expected a 32-byte hash/],
    [[{ topics: [A, 1] }], /filter\)\.topics\[1\]: expected null, a 32-byte topic, or an array/],
    [[{ topics: [null, null, null, null, A] }], /at most 4 topic positions/],
    [[{ fromBlock: 'justified' }], /filter\)\.fromBlock: expected a block number \(hex\), 'latest', 'earliest', 'pending'/],
    [[{ toBlock: 12 }], /filter\)\.toBlock: expected a block number/],
    [[{ fromBlock: '0x5', toBlock: '0x2' }], /fromBlock 0x5 is after toBlock 0x2/],
    [[{ toBlock: '0x1' }], /fromBlock 0x[0-9a-f]+ is after toBlock 0x1/],
    [[{}, {}], /too many arguments/],
  ];
  for (const [params, message] of cases) {
    const err = await fails(params);
    assert.is(err.code, -32602, `${JSON.stringify(params)}: ${err.code} ${err.message}`);
    assert.match(err.message, message);
  }
});

Logs('an unknown block hash has no logs: an empty array', async () => {
  assert.equal(await getLogs({ blockHash: `0x${'ab'.repeat(32)}` }), []);
});

Logs.run();

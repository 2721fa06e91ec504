/**
 * What Foundry, Hardhat and viem call on a development node (docs/rpc-compatibility.md): mixHash, the
 * safe and finalized tags, fee history, block receipts, a gas price that stays minable, the revert
 * code, and the developer controls under their evm_*, hardhat_* and anvil_* names, which other
 * networks and hosted mode refuse with the reason.
 */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../src/config/index.ts';
import { resolveSwitches } from '../../../src/rpc/switches.ts';
import { lazyNode, startTestNode } from '../../helpers/node.ts';
import { rpc, rpcError, waitUntil } from '../../helpers/rpc.ts';
import { compileFixture } from '../../helpers/solc.ts';

const DEV = '0x7986b3df570230288501eea3d890bd66948c9b79';
const TO = '0x4444444444444444444444444444444444444444';
const ZERO32 = `0x${'0'.repeat(64)}`;
const hexOf = (n: bigint | number) => `0x${n.toString(16)}`;

const Dev = suite('developer tooling: Foundry, Hardhat and viem expectations');
const { call, fails, stop } = lazyNode({ mining: 'off' });
Dev.after(stop);

const mine = async (n = 1) => { for (let i = 0; i < n; i++) await call('evm_mine'); };
const head = () => call('eth_getBlockByNumber', ['latest', false]);
const send = (tx: Record<string, string>) => call<string>('eth_sendTransaction', [{ from: DEV, to: TO, value: '0x1', ...tx }]);

Dev('mixHash on every block is the PREVRANDAO it ran with: the parent hash (zero at genesis)', async () => {
  await mine(2);
  const genesis = await call('eth_getBlockByNumber', ['0x0', false]);
  assert.is(genesis.mixHash, ZERO32);
  const one = await call('eth_getBlockByNumber', ['0x1', false]);
  assert.is(one.mixHash, genesis.hash);
  // The pending block: number and bloom given, no hash, a zero nonce (Foundry parses it).
  const pending = await call('eth_getBlockByNumber', ['pending', false]);
  const latest = await head();
  assert.equal([pending.number, pending.hash, pending.nonce, pending.mixHash], [hexOf(BigInt(latest.number) + 1n), null, '0x0000000000000000', latest.hash]);
});

Dev('safe and finalized name the blocks 6 and 12 below the head (genesis while the chain is shorter)', async () => {
  assert.is((await call('eth_getBlockByNumber', ['finalized', false])).number, '0x0');
  await mine(14 - Number(BigInt(await call('eth_blockNumber'))));
  assert.is(await call('eth_blockNumber'), '0xe');
  assert.is((await call('eth_getBlockByNumber', ['safe', false])).number, '0x8');
  assert.is((await call('eth_getBlockByNumber', ['finalized', false])).number, '0x2');
  assert.is(await call('eth_getBalance', [DEV, 'safe']), await call('eth_getBalance', [DEV, '0x8']));
  const bad = await fails('eth_getBlockByNumber', ['justified', false]);
  assert.is(bad.code, -32602);
  assert.match(bad.message, /'safe', 'finalized'/);
});

Dev('eth_feeHistory: zero base fees, gas used ratios, gas prices at percentiles of gas used; eth_getBlockReceipts', async () => {
  const hashes = [await send({ gasPrice: '0x5' }), await send({ gasPrice: '0x3' }), await send({ gasPrice: '0x9', value: '0x2' })];
  await mine();
  const n = BigInt(await call('eth_blockNumber'));
  const history = await call('eth_feeHistory', ['0x2', 'latest', [0, 50, 100]]);
  assert.is(history.oldestBlock, hexOf(n - 1n));
  assert.equal(history.baseFeePerGas, ['0x0', '0x0', '0x0']);
  assert.is(history.gasUsedRatio.length, 2);
  assert.is(history.gasUsedRatio[0], 0);
  assert.ok(history.gasUsedRatio[1] > 0);
  assert.equal(history.reward, [['0x0', '0x0', '0x0'], ['0x3', '0x5', '0x9']]);
  assert.not.ok('reward' in await call('eth_feeHistory', [3, 'latest']), 'no percentiles, no rewards');
  assert.is((await call('eth_feeHistory', ['0x400', '0x1', []])).oldestBlock, '0x0', 'a count past genesis starts there');
  for (const [params, what] of [[['0x0', 'latest'], /0 \(blockCount\)/], [['0x401', 'latest'], /0 \(blockCount\)/],
    [['0x1', 'latest', [50, 10]], /2 \(rewardPercentiles\)/], [['0x1', 'latest', [101]], /2 \(rewardPercentiles\)/],
    [['0x1', '0xffff'], /1 \(newestBlock\)/]] as const) {
    const err = await fails('eth_feeHistory', params as unknown as unknown[]);
    assert.is(err.code, -32602, JSON.stringify(params));
    assert.match(err.message, what);
  }

  const receipts = await call('eth_getBlockReceipts', ['latest']);
  assert.equal(receipts, await Promise.all(hashes.map((h) => call('eth_getTransactionReceipt', [h]))));
  assert.equal(await call('eth_getBlockReceipts', [(await head()).hash]), receipts);
  assert.is(await call('eth_getBlockReceipts', ['0xffff']), null);
  assert.is(await call('eth_getBlockReceipts', ['pending']), null);
  assert.is((await fails('eth_getBlockReceipts', ['soon'])).code, -32602);
});

Dev('eth_createAccessList: the slots a call touches, the gas it uses with them, the revert it meets', async () => {
  const { abi, bytecode } = compileFixture('Store.sol', 'Store');
  const store = new ethers.Interface(abi);
  const deploy = await call('eth_sendTransaction', [{ from: DEV, data: bytecode + store.encodeDeploy([1n]).slice(2), gas: '0x100000' }]);
  await mine();
  const { contractAddress } = await call('eth_getTransactionReceipt', [deploy]);
  const set = { from: DEV, to: contractAddress, data: store.encodeFunctionData('set', [8n]) };
  const created = await call('eth_createAccessList', [set, 'latest']);
  // value (slot 0) and credits[DEV] (keccak(DEV . 1)); the sender and the callee themselves are left out.
  const credits = ethers.keccak256(ethers.AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [DEV, 1]));
  assert.equal(created.accessList, [{ address: contractAddress, storageKeys: [ZERO32, credits].sort() }]);
  assert.not.ok('error' in created);
  const withList = BigInt(created.gasUsed);
  const plain = BigInt(await call('eth_estimateGas', [set]));
  assert.ok(withList < plain + 2_400n + 2n * 1_900n, `gas with the list ${withList}, without ${plain}`);
  const reverting = await call('eth_createAccessList', [{ ...set, data: store.encodeFunctionData('set', [13n]) }]);
  assert.match(reverting.error, /unlucky number/);
  assert.is((await fails('eth_createAccessList', [{ to: '0x12' }])).code, -32602);
});

Dev('hardhat_getAutomine and evm_setAutomine; evm_setIntervalMining mines on a timer until set to 0', async () => {
  assert.is(await call('hardhat_getAutomine'), false, 'this node started with mining off');
  assert.is(await call('evm_setAutomine', [true]), null);
  assert.is(await call('anvil_getAutomine'), true);
  const hash = await send({});
  await waitUntil(() => call('eth_getTransactionReceipt', [hash]), { what: 'the automined transfer' });
  assert.is(await call('anvil_setAutomine', [false]), null);
  assert.is(await call('hardhat_getAutomine'), false);
  assert.is(await call('evm_setIntervalMining', [20]), null);
  const from = BigInt(await call('eth_blockNumber'));
  await waitUntil(async () => BigInt(await call('eth_blockNumber')) >= from + 2n, { what: 'two interval blocks' });
  assert.is(await call('evm_setIntervalMining', ['0x0']), null);
  assert.is((await call('eth_mining')), false);
  assert.is((await fails('evm_setAutomine', ['yes'])).code, -32602);
  assert.is((await fails('evm_setIntervalMining', [-1])).code, -32602);
});

Dev('block time: evm_setNextBlockTimestamp, evm_mine at a timestamp, hardhat_mine blocks apart; bad times are -32602', async () => {
  const t = BigInt((await head()).timestamp) + 1_000n;
  assert.is(await call('evm_setNextBlockTimestamp', [hexOf(t)]), null);
  await mine();
  assert.is(BigInt((await head()).timestamp), t);
  await mine();
  assert.ok(BigInt((await head()).timestamp) >= t + 1n, 'later blocks go on from it');
  assert.is(await call('evm_mine', [Number(t + 5_000n)]), null);
  assert.is(BigInt((await head()).timestamp), t + 5_000n);
  assert.is(await call('evm_mine', [{ timestamp: hexOf(t + 6_000n) }]), null, 'Anvil\'s form');
  assert.is(BigInt((await head()).timestamp), t + 6_000n);
  const before = BigInt(await call('eth_blockNumber'));
  assert.is(await call('hardhat_mine', ['0x3', '0xa']), null);
  assert.is(BigInt(await call('eth_blockNumber')), before + 3n);
  const [a, b] = await Promise.all([hexOf(before + 2n), hexOf(before + 3n)].map((n) => call('eth_getBlockByNumber', [n, false])));
  assert.is(BigInt(b.timestamp) - BigInt(a.timestamp), 10n);
  // More blocks than a test usually needs at once (a governor's voting period is tens of thousands).
  assert.is(await call('hardhat_mine', [hexOf(1_200n)]), null);
  const last = await head();
  assert.is(BigInt(last.number), before + 1_203n);
  assert.is(BigInt(last.timestamp), BigInt(b.timestamp) + 1_200n, 'a second apart by default');

  const past = await fails('evm_setNextBlockTimestamp', [hexOf(t)]);
  assert.is(past.code, -32602);
  assert.match(past.message, /must be above the latest block's/);
  assert.is((await fails('evm_setNextBlockTimestamp', [2 ** 32])).code, -32602);
  assert.is((await fails('hardhat_mine', ['0x0'])).code, -32602);
  assert.is((await fails('evm_mine', ['tomorrow'])).code, -32602);
});

Dev('hardhat_mine of thousands of blocks: the pool\'s transactions in the first, then every block in order, interval apart, each heard by a block filter', async () => {
  const before = BigInt(await call('eth_blockNumber'));
  const hash = await send({});
  const filter = await call<string>('eth_newBlockFilter');
  const count = 2_100n; // more than one run of blocks written together (docs/performance.md "Mining many blocks")
  assert.is(await call('hardhat_mine', [hexOf(count), '0x2']), null);
  assert.is(BigInt(await call('eth_blockNumber')), before + count);
  assert.is(BigInt((await call('eth_getTransactionReceipt', [hash])).blockNumber), before + 1n, 'the pending transaction is in the first block');
  const heard = await call<string[]>('eth_getFilterChanges', [filter]);
  assert.is(heard.length, Number(count));
  for (const n of [1n, 1_000n, 1_001n, 1_002n, 2_001n, 2_002n, count]) {
    const [block, parent] = await Promise.all([hexOf(before + n), hexOf(before + n - 1n)].map((at) => call('eth_getBlockByNumber', [at, false])));
    assert.is(heard[Number(n - 1n)], block.hash, `block ${n} heard in order`);
    assert.is(block.parentHash, parent.hash);
    if (n > 1n) assert.is(BigInt(block.timestamp) - BigInt(parent.timestamp), 2n, `block ${n} two seconds after its parent`);
  }
  // Blocks whose times would pass what a parent-chain header carries are refused before any is mined.
  const far = await fails('hardhat_mine', [hexOf(100_000n), hexOf(2n ** 32n - 1n)]);
  assert.is(far.code, -32602);
  assert.match(far.message, /2\^32 - 1/);
  assert.is(BigInt(await call('eth_blockNumber')), before + count);
});

Dev('hardhat_setBalance, setNonce, setCode, setStorageAt (and anvil_*) show at latest at once; transactions go on from them', async () => {
  const who = '0x5555555555555555555555555555555555555555';
  const before = BigInt(await call('eth_blockNumber'));
  assert.is(await call('hardhat_setBalance', [who, '0xde0b6b3a7640000']), true);
  assert.is(await call('eth_getBalance', [who, 'latest']), '0xde0b6b3a7640000');
  assert.is(BigInt(await call('eth_blockNumber')), before + 1n, 'in a block of its own');
  assert.equal((await head()).transactions, []);
  assert.is(await call('anvil_setBalance', [TO, '0x7']), true);
  assert.is(await call('eth_getBalance', [TO, 'latest']), '0x7', 'lowered too');
  assert.is(await call('hardhat_setCode', [who, '0x602a60005260206000f3']), true); // returns 42
  assert.is(await call('eth_getCode', [who, 'latest']), '0x602a60005260206000f3');
  assert.is(BigInt(await call('eth_call', [{ to: who }, 'latest'])), 42n);
  assert.is(await call('anvil_setStorageAt', [who, '0x2', `0x${'0'.repeat(63)}9`]), true);
  assert.is(await call('eth_getStorageAt', [who, '0x2', 'latest']), `0x${'0'.repeat(63)}9`);
  // A sender whose nonce was set: the pool and the chain go on from it.
  const nonce = BigInt(await call('eth_getTransactionCount', [DEV, 'latest'])) + 5n;
  assert.is(await call('hardhat_setNonce', [DEV, hexOf(nonce)]), true);
  assert.is(await call('eth_getTransactionCount', [DEV, 'pending']), hexOf(nonce));
  const hash = await send({});
  await mine();
  const tx = await call('eth_getTransactionByHash', [hash]);
  assert.equal([tx.nonce, (await call('eth_getTransactionReceipt', [hash])).status], [hexOf(nonce), '0x1']);
  assert.is(await call('eth_getBalance', [TO, 'latest']), '0x8');
  for (const [method, params] of [['hardhat_setBalance', [who, 'lots']], ['hardhat_setCode', ['0x12', '0x']], ['anvil_setStorageAt', [who, '0x1', '0x01']]] as const) {
    assert.is((await fails(method, params as unknown as unknown[])).code, -32602, method);
  }
});

Dev('hardhat_dropTransaction / anvil_dropTransaction take a waiting transaction out; a mined one cannot be dropped', async () => {
  await mine();
  const first = await send({});
  const second = await send({});
  assert.equal(await call('txpool_status'), { pending: 2, queued: 0 });
  assert.is(await call('hardhat_dropTransaction', [first]), true);
  assert.equal(await call('txpool_status'), { pending: 0, queued: 1 }, 'the later nonce waits behind the gap it left');
  assert.is(await call('eth_getTransactionByHash', [first]), null);
  assert.is(await call('hardhat_dropTransaction', [first]), false, 'gone already');
  assert.is(await call('anvil_dropTransaction', [second]), second);
  assert.is(await call('anvil_dropTransaction', [second]), null);
  const mined = await send({});
  await mine();
  assert.is((await call('eth_getTransactionReceipt', [mined])).status, '0x1', 'the nonces the dropped ones held are free again');
  const err = await fails('hardhat_dropTransaction', [mined]);
  assert.equal([err.code, err.message], [-32602, `transaction ${mined} cannot be dropped: it is mined`]);
  assert.match((await fails('hardhat_dropTransaction', ['0x12'])).message, '0 (hash)');
});

Dev('hardhat_setCoinbase / anvil_setCoinbase: eth_coinbase and the blocks mined after it name the new address', async () => {
  const before = await call('eth_coinbase');
  assert.is(await call('hardhat_setCoinbase', [TO]), true);
  assert.is(await call('eth_coinbase'), TO);
  await mine();
  assert.is((await head()).miner, TO);
  assert.is(await call('anvil_setCoinbase', [before]), null);
  await mine();
  assert.is((await head()).miner, before);
  assert.match((await fails('hardhat_setCoinbase', ['me'])).message, '0 (address)');
});

Dev('eth_gasPrice stays at or above the minimum for the next 10 blocks and is admitted; lower is -32010; one overtaken while waiting is kept', async () => {
  const n = await startTestNode({ mining: 'off', minGasPrice: 10n ** 9n });
  try {
    await rpc(n.url, 'evm_mine');
    const price = BigInt(await rpc(n.url, 'eth_gasPrice'));
    assert.is(BigInt(await rpc(n.url, 'eth_maxPriorityFeePerGas')), price);
    const next = BigInt((await rpc(n.url, 'eth_getBlockByNumber', ['pending', false])).minimumGasPrice);
    const refused = await rpcError(n.url, 'eth_sendTransaction', [{ from: DEV, to: TO, value: '0x1', gasPrice: hexOf(next - 1n) }]);
    assert.is(refused.code, -32010);
    assert.match(refused.message, /lower than block's minimum/);
    // Nine blocks on, a transaction at that price still gets into the tenth.
    for (let i = 0; i < 9; i++) await rpc(n.url, 'evm_mine');
    const tenth = BigInt((await rpc(n.url, 'eth_getBlockByNumber', ['pending', false])).minimumGasPrice);
    assert.ok(tenth <= price, `the minimum ten blocks on (${tenth}) is at most the suggested price ${price}`);
    const hash = await rpc(n.url, 'eth_sendTransaction', [{ from: DEV, to: TO, value: '0x1', gasPrice: hexOf(price) }]);
    await rpc(n.url, 'evm_mine');
    assert.is((await rpc(n.url, 'eth_getTransactionReceipt', [hash])).status, '0x1');

    // Without a gas price, a transaction the node signs pays the pending block's minimum, the least it may.
    const atMinimum = await rpc<string>(n.url, 'eth_sendTransaction', [{ from: DEV, to: TO, value: '0x1' }]);
    const { minimumGasPrice } = await rpc(n.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.is((await rpc(n.url, 'eth_getTransactionByHash', [atMinimum])).gasPrice, minimumGasPrice);
    await rpc(n.url, 'evm_mine');
    assert.is((await rpc(n.url, 'eth_getTransactionReceipt', [atMinimum])).status, '0x1');

    // One overtaken while it waited (the block was full) is kept, pending, not dropped.
    const SECOND = (await rpc<string[]>(n.url, 'eth_accounts')).find((a) => a !== DEV)!;
    const floor = BigInt((await rpc(n.url, 'eth_getBlockByNumber', ['pending', false])).minimumGasPrice);
    const big = { to: TO, value: '0x1', gas: hexOf(5_000_000), gasPrice: hexOf(floor) };
    await rpc(n.url, 'eth_sendTransaction', [{ from: DEV, ...big }]);
    const waiting = await rpc<string>(n.url, 'eth_sendTransaction', [{ from: SECOND, ...big }]);
    await rpc(n.url, 'evm_mine');
    await rpc(n.url, 'evm_mine');
    assert.is(await rpc(n.url, 'eth_getTransactionReceipt', [waiting]), null, 'not mined: the minimum passed it');
    assert.is((await rpc(n.url, 'eth_getTransactionByHash', [waiting])).hash, waiting);
    assert.is((await rpc(n.url, 'txpool_status')).pending, 1);
  } finally {
    await n.stop();
  }
});

Dev('--rpc-revert-code 3: reverts are `execution reverted: <reason>` with the data; other failures keep their own code (-32016)', async () => {
  assert.is(parseConfig(['--rpc-revert-code=3']).rpcRevertCode, 3);
  assert.is(parseConfig([]).rpcRevertCode, -32015);
  assert.throws(() => parseConfig(['--rpc-revert-code=7']), /--rpc-revert-code must be -32015 or 3/);
  const n = await startTestNode({ rpcRevertCode: 3 });
  try {
    const { abi, bytecode } = compileFixture('Store.sol', 'Store');
    const store = new ethers.Interface(abi);
    const deploy = await rpc(n.url, 'eth_sendTransaction', [{ from: DEV, data: bytecode + store.encodeDeploy([1n]).slice(2), gas: '0x100000' }]);
    const { contractAddress } = await waitUntil(() => rpc(n.url, 'eth_getTransactionReceipt', [deploy]), { what: 'the deploy' });
    const reason = await rpcError(n.url, 'eth_call', [{ to: contractAddress, data: store.encodeFunctionData('set', [13n]) }]);
    assert.equal([reason.code, reason.message], [3, 'execution reverted: unlucky number']);
    assert.is(reason.data, store.encodeErrorResult(store.getError('Error(string)')!, ['unlucky number']));
    const custom = await rpcError(n.url, 'eth_estimateGas', [{ from: DEV, to: contractAddress, data: store.encodeFunctionData('fail', [5n]) }]);
    assert.equal([custom.code, custom.message, custom.data], [3, 'execution reverted', store.encodeErrorResult('Custom', [5n])]);
    const outOfGas = await rpcError(n.url, 'eth_call', [{ to: contractAddress, data: store.encodeFunctionData('set', [8n]), gas: '0x5300' }]);
    assert.is(outOfGas.code, -32016);
  } finally {
    await n.stop();
  }
});

Dev('developer controls answer -32601 with the reason on other networks and in hosted mode', async () => {
  const testnet = await startTestNode({ network: 'testnet', rpcModules: resolveSwitches('testnet', { modules: ['eth', 'evm'] }) });
  try {
    const err = await rpcError(testnet.url, 'hardhat_getAutomine');
    assert.is(err.code, -32601);
    assert.match(err.message, /developer controls are served on regtest only, this node runs testnet/);
    assert.match((await rpcError(testnet.url, 'evm_increaseTime', [1])).message, /regtest only/);
    assert.match((await rpcError(testnet.url, 'hardhat_impersonateAccount', [DEV])).message, /regtest only/);
  } finally {
    await testnet.stop();
  }
  const key = 'k'.repeat(20);
  // A hosted endpoint leaves the evm module off by default; switched on, the controls still say why they are off.
  const hosted = await startTestNode({
    hosted: { apiKeys: new Set([key]), requestsPerMinute: 600 }, rpcModules: resolveSwitches('regtest', { modules: ['eth', 'evm'] }, true),
  });
  try {
    const err = await rpcError(`${hosted.url}/${key}`, 'evm_setAutomine', [true]);
    assert.is(err.code, -32601);
    assert.match(err.message, /not served in hosted mode/);
    assert.match((await rpcError(`${hosted.url}/${key}`, 'anvil_impersonateAccount', [DEV])).message, /not served in hosted mode/);
  } finally {
    await hosted.stop();
  }
  assert.type(await call('hardhat_getAutomine'), 'boolean', 'served on a regtest node');
});

Dev.run();

/** Blocks and transactions by hash, number and index on a real node: null for unknown ones, uncles, counts, the full block object, paidFees. */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytecode, DATA, devA, devB, hexQ, iface, MINER, QTY, storeChain, UNKNOWN_HASH, ZERO32 } from '../../../helpers/storeChain.ts';

const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
const GWEI = 10n ** 9n;

const { call, block, sendAndMine, storeFixture, stop } = storeChain();
const Blocks = suite('eth_* blocks and transactions');
Blocks.after(stop);

Blocks('unknown hashes and numbers beyond the tip give null', async () => {
  const tip = BigInt(await call('eth_blockNumber'));
  const beyond = hexQ(tip + 1000n);
  assert.is(await call('eth_getBlockByHash', [UNKNOWN_HASH, false]), null);
  assert.is(await call('eth_getBlockByNumber', [beyond, true]), null);
  assert.is(await call('eth_getTransactionByHash', [UNKNOWN_HASH]), null);
  assert.is(await call('eth_getTransactionReceipt', [UNKNOWN_HASH]), null);
  assert.is(await call('eth_getBlockTransactionCountByHash', [UNKNOWN_HASH]), null);
  assert.is(await call('eth_getTransactionByBlockHashAndIndex', [UNKNOWN_HASH, '0x0']), null);
  assert.is(await call('eth_getTransactionByBlockNumberAndIndex', [beyond, '0x0']), null);
  assert.is(await call('eth_getUncleByBlockHashAndIndex', [UNKNOWN_HASH, '0x0']), null);
  assert.is(await call('eth_getUncleByBlockNumberAndIndex', [beyond, '0x0']), null);
});

Blocks('uncle lookups on a block without uncles: count 0x0, uncle by index null', async () => {
  const { deploy } = await storeFixture();
  assert.equal(deploy.uncles, []);
  assert.is(deploy.sha3Uncles, EMPTY_UNCLES_HASH);
  assert.is(await call('eth_getUncleCountByBlockHash', [deploy.hash]), '0x0');
  assert.is(await call('eth_getUncleCountByBlockNumber', [deploy.number]), '0x0');
  assert.is(await call('eth_getUncleCountByBlockNumber', ['latest']), '0x0');
  assert.is(await call('eth_getUncleByBlockHashAndIndex', [deploy.hash, '0x0']), null);
  assert.is(await call('eth_getUncleByBlockNumberAndIndex', [deploy.number, '0x0']), null);
});

Blocks('transaction counts per block by hash and by number', async () => {
  const { deploy } = await storeFixture();
  assert.is(await call('eth_getBlockTransactionCountByHash', [deploy.hash]), '0x1');
  assert.is(await call('eth_getBlockTransactionCountByNumber', [deploy.number]), '0x1');
  assert.is(await call('eth_getBlockTransactionCountByNumber', ['earliest']), '0x0');
  const genesis = await block(0);
  assert.is(await call('eth_getBlockTransactionCountByHash', [genesis.hash]), '0x0');
});

Blocks('transactions by block hash/number and index equal the lookup by hash', async () => {
  const { deploy, deployHash } = await storeFixture();
  const byHash = await call('eth_getTransactionByHash', [deployHash]);
  assert.equal(await call('eth_getTransactionByBlockHashAndIndex', [deploy.hash, '0x0']), byHash);
  assert.equal(await call('eth_getTransactionByBlockNumberAndIndex', [deploy.number, '0x0']), byHash);
  assert.is(await call('eth_getTransactionByBlockHashAndIndex', [deploy.hash, '0x1']), null);
  assert.is(await call('eth_getTransactionByBlockNumberAndIndex', [deploy.number, '0x1']), null);
  // the full transaction object (spec 2.5)
  assert.is(byHash.hash, deployHash);
  assert.is(byHash.blockHash, deploy.hash);
  assert.is(byHash.blockNumber, deploy.number);
  assert.is(byHash.transactionIndex, '0x0');
  assert.is(byHash.from, devA);
  assert.is(byHash.to, null);
  for (const f of ['nonce', 'gas', 'gasPrice', 'value', 'v', 'r', 's', 'type']) assert.match(byHash[f], QTY, f);
  assert.ok(byHash.input.startsWith(bytecode), 'input is the init code');
  const recovered = ethers.Transaction.from({
    type: 0, chainId: 33, nonce: Number(byHash.nonce), gasLimit: byHash.gas, gasPrice: byHash.gasPrice, to: null, value: byHash.value,
    data: byHash.input, signature: { r: ethers.toBeHex(byHash.r, 32), s: ethers.toBeHex(byHash.s, 32), v: Number(byHash.v) },
  });
  assert.is(recovered.hash, deployHash, 'v, r, s and the fields re-create the signed transaction');
  assert.is(recovered.from?.toLowerCase(), devA);
  // the receipt of a deploy
  const receipt = await call('eth_getTransactionReceipt', [deployHash]);
  assert.is(receipt.contractAddress, ethers.getCreateAddress({ from: devA, nonce: Number(byHash.nonce) }).toLowerCase());
  assert.is(receipt.to, null);
  assert.is(receipt.type, '0x0');
  assert.is(receipt.effectiveGasPrice, byHash.gasPrice);
  assert.match(receipt.logsBloom, DATA(256));
});

Blocks('a block object has every field of the spec\'s block object, and baseFeePerGas 0, with the right encoding', async () => {
  const { set } = await storeFixture();
  const b = await call('eth_getBlockByNumber', [set.number, true]);
  const parent = await block(BigInt(b.number) - 1n);
  const fields: Record<string, RegExp> = {
    number: QTY, hash: DATA(32), parentHash: DATA(32), nonce: DATA(8), sha3Uncles: DATA(32), logsBloom: DATA(256),
    transactionsRoot: DATA(32), stateRoot: DATA(32), receiptsRoot: DATA(32), miner: DATA(20), difficulty: QTY, totalDifficulty: QTY,
    cumulativeDifficulty: QTY, extraData: DATA(), size: QTY, gasLimit: QTY, gasUsed: QTY, timestamp: QTY, minimumGasPrice: QTY,
    paidFees: QTY, baseFeePerGas: QTY, hashForMergedMining: DATA(32), parentChainMergedMiningHeader: DATA(80),
    parentChainMergedMiningCoinbaseTransaction: DATA(), parentChainMergedMiningMerkleProof: DATA(),
  };
  for (const [name, format] of Object.entries(fields)) assert.match(b[name], format, `${name} = ${b[name]}`);
  assert.ok(Array.isArray(b.transactions) && Array.isArray(b.uncles));
  assert.is(b.hash, set.hash);
  assert.is(b.parentHash, parent.hash);
  assert.is(b.miner, MINER);
  assert.is(b.baseFeePerGas, '0x0', 'no base fee (docs/rpc-compatibility.md "Gas price")');
  assert.is(BigInt(b.totalDifficulty), BigInt(parent.totalDifficulty) + BigInt(b.difficulty));
  assert.is(b.cumulativeDifficulty, b.difficulty); // no uncles
  assert.ok(BigInt(b.timestamp) >= BigInt(parent.timestamp));
  assert.ok(BigInt(b.size) > 80n);
  assert.ok(b.parentChainMergedMiningCoinbaseTransaction.length > 2, 'a mined block carries the parent-chain coinbase');
  assert.ok(BigInt(b.gasUsed) > 21_000n && BigInt(b.gasUsed) <= BigInt(b.gasLimit));
  // full transactions, with the logs bloom of the Stored event set
  assert.is(b.transactions.length, 1);
  assert.is(b.transactions[0].blockHash, b.hash);
  assert.not.equal(b.logsBloom, `0x${'00'.repeat(256)}`);
  const receipt = await call('eth_getTransactionReceipt', [b.transactions[0].hash]);
  assert.is(receipt.gasUsed, b.gasUsed);
  assert.is(receipt.logsBloom, b.logsBloom);
  // the same block by hash, hashes only
  const byHash = await call('eth_getBlockByHash', [b.hash, false]);
  assert.equal(byHash.transactions, [b.transactions[0].hash]);
  assert.equal({ ...byHash, transactions: [] }, { ...b, transactions: [] });
});

Blocks('the latest block and the genesis block', async () => {
  const latest = await call('eth_getBlockByNumber', ['latest', false]);
  assert.is(latest.number, await call('eth_blockNumber'));
  const genesis = await call('eth_getBlockByNumber', ['earliest', false]);
  assert.is(genesis.number, '0x0');
  assert.is(genesis.parentHash, ZERO32);
  assert.equal(await call('eth_getBlockByNumber', ['0x0', false]), genesis);
});

Blocks('paidFees equals the sum of gasUsed × gasPrice of the block transactions', async () => {
  const { store } = await storeFixture();
  const receipt = await sendAndMine({ from: devB, to: store, data: iface.encodeFunctionData('set', [11n]), gas: hexQ(200_000), gasPrice: hexQ(2n * GWEI) });
  assert.is(receipt.status, '0x1');
  assert.is(receipt.effectiveGasPrice, hexQ(2n * GWEI));
  const b = await call('eth_getBlockByHash', [receipt.blockHash, true]);
  let sum = 0n;
  for (const tx of b.transactions) {
    const r = await call('eth_getTransactionReceipt', [tx.hash]);
    sum += BigInt(r.gasUsed) * BigInt(tx.gasPrice);
  }
  assert.ok(sum >= BigInt(receipt.gasUsed) * 2n * GWEI);
  assert.is(b.paidFees, hexQ(sum));
  // fees are charged to the sender
  const balanceBefore = BigInt(await call('eth_getBalance', [devB, hexQ(BigInt(b.number) - 1n)]));
  const balanceAfter = BigInt(await call('eth_getBalance', [devB, b.number]));
  assert.is(balanceBefore - balanceAfter, BigInt(receipt.gasUsed) * 2n * GWEI);
});

Blocks.run();

/** ethers v6 against a real node: deploy, call, both transaction types, receipts, history, reverts, signing. */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { rpc } from '../helpers/rpc.ts';
import { compileFixture } from '../helpers/solc.ts';

const DEV_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const OTHER = '0x7986b3df570230288501eea3d890bd66948c9b79';

const Ethers = suite('ethers v6');
let node: TestNode;
let provider: ethers.JsonRpcProvider;
let wallet: ethers.Wallet;
let store: ethers.Contract;
let deployBlock: number;

const setup = (async () => {
  node = await startTestNode();
  // cacheTimeout -1: a node that mines at once answers faster than ethers' 250 ms request cache.
  provider = new ethers.JsonRpcProvider(node.url, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
  wallet = new ethers.Wallet(DEV_KEY, provider);
})();

Ethers.after(async () => { provider?.destroy(); await node?.stop(); });

Ethers('deploys a solc-compiled contract (default EVM version) and reads it', async () => {
  await setup;
  const { abi, bytecode } = compileFixture('Store.sol', 'Store');
  const deployed = await new ethers.ContractFactory(abi, bytecode, wallet).deploy(42n);
  const receipt = await deployed.deploymentTransaction()!.wait();
  assert.is(receipt!.status, 1);
  assert.is(receipt!.contractAddress, await deployed.getAddress());
  store = deployed as ethers.Contract;
  deployBlock = receipt!.blockNumber;
  assert.is(await store.value!(), 42n);
  assert.ok((await provider.getCode(await store.getAddress())).length > 100);
  // echo copies calldata to memory: MCOPY on current solc output
  assert.is(await store.echo!('0xdeadbeef'), '0xdeadbeef');
  const info = await store.blockInfo!();
  assert.is(info.chain, 33n);
});

Ethers('sends a legacy EIP-155 transaction and reads its receipt and event', async () => {
  const tx = await store.set!(7n);
  assert.is(tx.type, 0);
  assert.is(tx.chainId, 33n);
  const receipt = await tx.wait();
  assert.is(receipt.status, 1);
  assert.is(receipt.logs.length, 1);
  const parsed = store.interface.parseLog(receipt.logs[0]);
  assert.is(parsed!.name, 'Stored');
  assert.is(parsed!.args.value, 7n);
  assert.is(parsed!.args.who, wallet.address);
  assert.is(await store.value!(), 7n);
  const fetched = await provider.getTransaction(tx.hash);
  assert.is(fetched!.blockNumber, receipt.blockNumber);
  assert.is(fetched!.from, wallet.address);
});

Ethers('sends an EIP-2930 transaction with an access list', async () => {
  const before = await provider.getBalance(OTHER);
  const tx = await wallet.sendTransaction({
    to: OTHER, value: 12345n, type: 1, accessList: [{ address: await store.getAddress(), storageKeys: [ethers.zeroPadValue('0x00', 32)] }],
  });
  const receipt = await tx.wait();
  assert.is(receipt!.status, 1);
  assert.is(receipt!.type, 1);
  assert.is(await provider.getBalance(OTHER), before + 12345n);
  const raw = await rpc(node.url, 'eth_getTransactionByHash', [tx.hash]);
  assert.is(raw.type, '0x1');
  assert.is(raw.chainId, '0x21');
  assert.is(raw.accessList.length, 1);
});

Ethers('reads balances, code, storage and nonces at past blocks', async () => {
  const address = await store.getAddress();
  assert.is(await provider.getCode(address, deployBlock - 1), '0x');
  assert.is(BigInt(await provider.getStorage(address, 0, deployBlock)), 42n);
  assert.is(BigInt(await provider.getStorage(address, 0, 'latest')), 7n);
  assert.is(await provider.getTransactionCount(wallet.address, deployBlock - 1), 0);
  assert.is(await provider.getTransactionCount(wallet.address, deployBlock), 1);
  const valueAtDeploy = await store.value!({ blockTag: deployBlock });
  assert.is(valueAtDeploy, 42n);
  const genesisBalance = await provider.getBalance(wallet.address, 0);
  assert.is(genesisBalance, 10n ** 30n);
});

Ethers('shows revert reasons and custom errors', async () => {
  try {
    await store.set!.staticCall(13n);
    assert.unreachable('should revert');
  } catch (err) {
    assert.is((err as { code: string }).code, 'CALL_EXCEPTION');
    assert.is((err as { reason: string }).reason, 'unlucky number');
  }
  try {
    await store.fail!(5n);
    assert.unreachable('should revert');
  } catch (err) {
    const revert = (err as { revert: { name: string; args: unknown[] } }).revert;
    assert.is(revert.name, 'Custom');
    assert.equal([...revert.args], [5n]);
  }
  try {
    await store.set!(13n); // estimateGas reverts before anything is sent
    assert.unreachable('should revert');
  } catch (err) {
    assert.is((err as { reason: string }).reason, 'unlucky number');
  }
});

Ethers('reads blocks with full transactions and every spec field', async () => {
  const latest = await provider.getBlock('latest', true);
  assert.ok(latest && latest.number >= 3);
  assert.is(latest!.prefetchedTransactions.length, latest!.transactions.length);
  const raw = await rpc(node.url, 'eth_getBlockByNumber', [ethers.toQuantity(latest!.number), false]);
  for (const field of ['number', 'hash', 'parentHash', 'sha3Uncles', 'logsBloom', 'transactionsRoot', 'stateRoot', 'receiptsRoot', 'miner',
    'difficulty', 'totalDifficulty', 'cumulativeDifficulty', 'extraData', 'size', 'gasLimit', 'gasUsed', 'timestamp', 'transactions', 'uncles',
    'minimumGasPrice', 'paidFees', 'hashForMergedMining', 'parentChainMergedMiningHeader', 'parentChainMergedMiningCoinbaseTransaction',
    'parentChainMergedMiningMerkleProof']) {
    assert.ok(field in raw, `block has ${field}`);
  }
  assert.is((raw.parentChainMergedMiningHeader.length - 2) / 2, 80);
  assert.is(raw.hash, latest!.hash);
});

Ethers('signs with eth_sign (EIP-191) and eth_sendTransaction for node-held accounts', async () => {
  const accounts: string[] = await rpc(node.url, 'eth_accounts');
  assert.is(accounts[0], wallet.address.toLowerCase());
  const message = ethers.hexlify(ethers.toUtf8Bytes('hello mmnode'));
  const signature = await rpc(node.url, 'eth_sign', [accounts[0], message]);
  assert.is(ethers.verifyMessage(ethers.toUtf8Bytes('hello mmnode'), signature).toLowerCase(), accounts[0]);
  const signer = await provider.getSigner(accounts[1]!);
  const tx = await signer.sendTransaction({ to: OTHER, value: 1n });
  const receipt = await tx.wait();
  assert.is(receipt!.status, 1);
  assert.is(receipt!.from.toLowerCase(), accounts[1]);
});

Ethers('sends many transactions from one sender in a row', async () => {
  const receipts = [];
  for (let i = 0; i < 5; i++) receipts.push(await (await wallet.sendTransaction({ to: OTHER, value: 1n })).wait());
  assert.ok(receipts.every((r) => r!.status === 1));
  const nonces = await Promise.all(receipts.map(async (r) => (await provider.getTransaction(r!.hash))!.nonce));
  assert.equal(nonces, [...nonces].sort((a, b) => a - b));
});

Ethers.run();

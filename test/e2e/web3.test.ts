/** web3.js v4 against a real node: local wallet, deploy, call, send, balances, blocks, chain id, revert reasons. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Web3 } from 'web3';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { compileFixture } from '../helpers/solc.ts';

const DEV_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const DEV_ADDRESS = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
const OTHER = '0x7986b3df570230288501eea3d890bd66948c9b79';
const { abi, bytecode } = compileFixture('Store.sol', 'Store');

let node: TestNode | undefined;
let web3: Web3;
let from: string;
let ready: Promise<void> | undefined;

/** Starts the node on first use (inside a test, so a failing start fails that test). */
function setup(): Promise<void> {
  ready ??= (async () => {
    node = await startTestNode();
    web3 = new Web3(node.url);
    web3.setConfig({ transactionPollingInterval: 50, transactionReceiptPollingInterval: 50, transactionConfirmationPollingInterval: 50 });
    from = web3.eth.accounts.wallet.add(DEV_KEY)[0]!.address;
  })();
  return ready;
}

/** The message and data of the error a rejected web3 call carries, from the outer error and its inner RPC error. */
async function rejection(promise: Promise<unknown>): Promise<{ text: string; data?: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { message: string; innerError?: { message?: string; data?: string; code?: number }; cause?: { message?: string; data?: string } };
    const inner = e.innerError ?? e.cause;
    return { text: `${e.message} | ${inner?.message ?? ''}`, data: inner?.data };
  }
  throw new assert.Assertion({ message: 'expected a rejection', expects: 'rejection', actual: 'resolved', operator: 'rejects' });
}

const Web3Suite = suite('web3.js v4');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let store: any;
let deployBlock: bigint;

Web3Suite.after(async () => { await node?.stop(); });

Web3Suite('chain id is 33 and the wallet account is a funded dev account', async () => {
  await setup();
  assert.is(await web3.eth.getChainId(), 33n);
  assert.is(await web3.eth.net.getId(), 33n);
  assert.is(from.toLowerCase(), DEV_ADDRESS);
  assert.is(await web3.eth.getBalance(from), 10n ** 30n);
});

Web3Suite('deploys Store(42) signed by the local wallet and calls value()', async () => {
  const contract = new web3.eth.Contract(abi);
  store = await contract.deploy({ data: bytecode, arguments: [42] }).send({ from, gas: '1000000' });
  assert.ok(store.options.address, 'deployed contract has an address');
  assert.is(await store.methods.value().call(), 42n);
  const code = await web3.eth.getCode(store.options.address);
  assert.ok(code.length > 100);
  deployBlock = await web3.eth.getBlockNumber();
  assert.is(await web3.eth.getTransactionCount(from), 1n);
});

// No explicit gas: web3 estimates it, sending its own extra fields (chain, hardfork, networkId) in the call object.
Web3Suite('send set(9) waits for the receipt; the event and new value are visible', async () => {
  const receipt = await store.methods.set(9).send({ from });
  assert.is(receipt.status, 1n);
  assert.is(receipt.from.toLowerCase(), DEV_ADDRESS);
  assert.is(receipt.to.toLowerCase(), store.options.address.toLowerCase());
  assert.ok(receipt.blockNumber > deployBlock);
  const stored = receipt.events?.Stored;
  assert.ok(stored, 'receipt decodes the Stored event');
  assert.is(stored.returnValues.value, 9n);
  assert.is(stored.returnValues.who.toLowerCase(), DEV_ADDRESS);
  assert.is(await store.methods.value().call(), 9n);
  // the earlier value is still readable at the deploy block
  assert.is(await store.methods.value().call({}, deployBlock), 42n);
  assert.is(await store.methods.credits(from).call(), 9n);
});

Web3Suite('a value transfer moves the balance', async () => {
  const before = await web3.eth.getBalance(OTHER);
  const receipt = await web3.eth.sendTransaction({ from, to: OTHER, value: web3.utils.toWei('2', 'ether'), gas: 21000 });
  assert.is(receipt.status, 1n);
  assert.is(receipt.gasUsed, 21000n);
  assert.is(await web3.eth.getBalance(OTHER), before + 2n * 10n ** 18n);
  assert.is(await web3.eth.getBalance(OTHER, 0), 10n ** 30n);
});

Web3Suite('getBlock by number and by hash, with and without transactions', async () => {
  const latest = await web3.eth.getBlock('latest');
  assert.is(latest.number, await web3.eth.getBlockNumber());
  assert.is(latest.transactions.length, 1);
  const byHash = await web3.eth.getBlock(latest.hash!, true);
  assert.is(byHash.number, latest.number);
  const tx = byHash.transactions[0] as { hash: string; from: string; to: string; blockHash: string };
  assert.type(tx, 'object');
  assert.is(tx.hash, latest.transactions[0]);
  assert.is(tx.from.toLowerCase(), DEV_ADDRESS);
  assert.is(tx.to.toLowerCase(), OTHER);
  assert.is(tx.blockHash, latest.hash);
  const parent = await web3.eth.getBlock(latest.number - 1n);
  assert.is(parent.hash, latest.parentHash);
  const genesis = await web3.eth.getBlock(0);
  assert.is(genesis.number, 0n);
  assert.is(genesis.transactions.length, 0);
});

Web3Suite('call of set(13) rejects with the revert reason', async () => {
  const before = await store.methods.value().call();
  const { text, data } = await rejection(store.methods.set(13).call({ from }));
  assert.match(text, 'unlucky number');
  assert.ok(data?.startsWith('0x08c379a0'), `revert data ${data}`);
  assert.is(await store.methods.value().call(), before);
});

Web3Suite('call of fail(5) rejects with the custom error data', async () => {
  const { data } = await rejection(store.methods.fail(5).call({ from }));
  const selector = web3.eth.abi.encodeFunctionSignature('Custom(uint256)');
  assert.is(data, selector + web3.eth.abi.encodeParameter('uint256', 5).slice(2));
});

Web3Suite.run();

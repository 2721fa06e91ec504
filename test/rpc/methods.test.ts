/**
 * Method results over raw HTTP: node info, accounts and signing, eth_sendTransaction defaults, proofs
 * checked against the state root, every block-selector form, null for unknown things, uncles, counts,
 * by-index lookups, the full block object, the smallest gas estimate, and paidFees.
 */
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../helpers/node.ts';
import { post, waitUntil } from '../helpers/rpc.ts';
import { compileFixture } from '../helpers/solc.ts';

const DEV_KEYS = [
  'c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4', '0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
  '88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d', '1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75',
  '3927ff59ac5da854e7633682792aae26e8f83b515c3c6dc7520b5733d4588b8a', '20e4a6381bd3826a14f8da63653d94e7102b38eb5f929c7a94652f41fa7ba323',
  'c1783a9a8222e47778911c58bb5aac1343eb425159ff140799e0a283bfb8fa16', 'e88b7bfb0b3ffe2245e3293e20901022ea01ebc19898dfe468289c9a07672627',
  'd77b8a342be95c5c31fa85c20450b424663c4fb4a499cfc80c202c592c85c219', '082f57b8084286a079aeb9f2d0e17e565ced44a2cb9ce4844e6d4b9d89f3f595',
];
const DEV = DEV_KEYS.map((k) => ethers.computeAddress(`0x${k}`).toLowerCase());
const MINER = '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d';
const [devA, devB, devC, devD] = DEV as [string, string, string, string];
const ZERO32 = `0x${'00'.repeat(32)}`;
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`;
const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
const GWEI = 10n ** 9n;

const { abi, bytecode } = compileFixture('Store.sol', 'Store');
const iface = new ethers.Interface(abi);

/** The node, started on first use inside a test. */
const { url, call, stop } = lazyNode();

const hexQ = (n: bigint | number) => `0x${n.toString(16)}`;
const QTY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const DATA = (bytes?: number) => (bytes === undefined ? /^0x([0-9a-f]{2})*$/ : new RegExp(`^0x[0-9a-f]{${2 * bytes}}$`));
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

async function receiptOf(hash: string) {
  return waitUntil(() => call('eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined), { what: `receipt of ${hash}` });
}
/** eth_sendTransaction from a node-held account, waiting for the receipt. */
async function sendAndMine(tx: Record<string, string>) {
  const hash = await call<string>('eth_sendTransaction', [tx]);
  assert.match(hash, DATA(32));
  return receiptOf(hash);
}
const block = (sel: string | number | bigint, full = false) =>
  call(typeof sel === 'string' && sel.length === 66 ? 'eth_getBlockByHash' : 'eth_getBlockByNumber', [typeof sel === 'string' ? sel : hexQ(sel), full]);

/** Store deployed at block `deploy`, then set(7) at block `set`. Created by the first test that needs it. */
let fixture: Promise<{ store: string; deployHash: string; deploy: any; set: any }> | undefined;
const storeFixture = () => (fixture ??= (async () => {
  const deployReceipt = await sendAndMine({ from: devA, data: bytecode + iface.encodeDeploy([42n]).slice(2), gas: hexQ(3_000_000) });
  assert.is(deployReceipt.status, '0x1');
  const store = deployReceipt.contractAddress as string;
  const setReceipt = await sendAndMine({ from: devA, to: store, data: iface.encodeFunctionData('set', [7n]), gas: hexQ(200_000) });
  assert.is(setReceipt.status, '0x1');
  return { store, deployHash: deployReceipt.transactionHash, deploy: await block(deployReceipt.blockHash), set: await block(setReceipt.blockHash) };
})());

const Methods = suite('JSON-RPC methods');
Methods.after(stop);

// ---------------------------------------------------------------- node

Methods('web3_clientVersion names the client', async () => {
  const version = await call<string>('web3_clientVersion');
  assert.type(version, 'string');
  assert.match(version, /^mmnode\/v?\d+\.\d+\.\d+/);
});

Methods('web3_sha3 is keccak-256', async () => {
  assert.is(await call('web3_sha3', ['0x68656c6c6f20776f726c64']), '0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad');
  assert.is(await call('web3_sha3', ['0x']), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
});

Methods('net_version is "33" and eth_chainId is "0x21"', async () => {
  assert.is(await call('net_version'), '33');
  assert.is(await call('eth_chainId'), '0x21');
  assert.is(await call('net_listening'), true, 'the p2p host listens');
  assert.is(await call('net_peerCount'), '0x0');
  assert.is(await call('eth_syncing'), false);
});

Methods('eth_accounts lists the 10 dev accounts and the regtest miner', async () => {
  const accounts = await call<string[]>('eth_accounts');
  assert.is(accounts.length, 11);
  for (const a of accounts) assert.match(a, DATA(20));
  assert.equal([...accounts].map((a) => a.toLowerCase()).sort(), [...DEV, MINER].sort());
});

Methods('eth_sign signs the prefixed message; ethers.verifyMessage recovers the account', async () => {
  for (const [who, message] of [[devA, '0xdeadbeef'], [devB, '0x68656c6c6f'], [MINER, '0x'], [devA, `0x${'07'.repeat(300)}`]] as const) {
    const sig = await call<string>('eth_sign', [who, message]);
    assert.match(sig, DATA(65));
    assert.ok(['1b', '1c'].includes(sig.slice(-2)), `v byte ${sig.slice(-2)}`);
    assert.is(ethers.verifyMessage(ethers.getBytes(message), sig).toLowerCase(), who);
  }
});

// ---------------------------------------------------------------- sending

Methods('eth_sendTransaction fills defaults (gas 90000, gas price 0, next nonce) and is mined', async () => {
  const to = '0x2222222222222222222222222222222222222222';
  const before = BigInt(await call('eth_getTransactionCount', [devD, 'latest']));
  const receipt = await sendAndMine({ from: devD, to, value: '0x3e8' });
  assert.is(receipt.status, '0x1');
  assert.is(receipt.from, devD);
  assert.is(receipt.to, to);
  assert.is(receipt.gasUsed, hexQ(21_000));
  const tx = await call('eth_getTransactionByHash', [receipt.transactionHash]);
  assert.is(tx.gas, hexQ(90_000));
  assert.is(tx.gasPrice, '0x0');
  assert.is(tx.nonce, hexQ(before));
  assert.is(tx.value, '0x3e8');
  assert.is(tx.chainId, '0x21');
  assert.is(tx.blockHash, receipt.blockHash);
  assert.is(await call('eth_getBalance', [to, 'latest']), '0x3e8');
  assert.is(await call('eth_getTransactionCount', [devD, 'latest']), hexQ(before + 1n));
});

// ---------------------------------------------------------------- proofs

async function verifyAccountProof(address: string, blockNumber: string) {
  const header = await block(blockNumber);
  const proof = await call('eth_getProof', [address, ['0x0'], blockNumber]);
  assert.is(proof.address.toLowerCase(), address.toLowerCase());
  const nodes = proof.accountProof.map((n: string) => hexToBytes(n as `0x${string}`));
  assert.is(ethers.keccak256(proof.accountProof[0]), header.stateRoot, 'the first proof node is the state root node');
  const value = await verifyMerkleProof(hexToBytes(address as `0x${string}`), nodes, { root: hexToBytes(header.stateRoot), useKeyHashing: true });
  return { proof, header, value };
}

Methods('eth_getProof: the account proof verifies against the block state root', async () => {
  const { store, set } = await storeFixture();
  const number = set.number;
  const { proof, value } = await verifyAccountProof(store, number);
  assert.ok(value, 'the contract account exists in the proven trie');
  const [nonce, balance, storageRoot, codeHash] = RLP.decode(value!) as Uint8Array[];
  assert.is(hexQ(bytesToBigInt(nonce!)), proof.nonce);
  assert.is(hexQ(bytesToBigInt(balance!)), proof.balance);
  assert.is(bytesToHex(storageRoot!), proof.storageHash);
  assert.is(bytesToHex(codeHash!), proof.codeHash);
  assert.is(proof.codeHash, ethers.keccak256(await call('eth_getCode', [store, number])));
  assert.is(proof.nonce, '0x1'); // EIP-161: a new contract starts at nonce 1

  // a dev account's balance is proven too
  const dev = await verifyAccountProof(devB, number);
  const [, devBalance] = RLP.decode(dev.value!) as Uint8Array[];
  assert.is(hexQ(bytesToBigInt(devBalance!)), await call('eth_getBalance', [devB, number]));
});

Methods('eth_getProof: the storage proof of Store slot 0 verifies against storageHash', async () => {
  const { store, deploy, set } = await storeFixture();
  for (const [b, expected] of [[deploy, 42n], [set, 7n]] as const) {
    const proof = await call('eth_getProof', [store, ['0x0'], b.number]);
    assert.is(proof.storageProof.length, 1);
    const sp = proof.storageProof[0];
    assert.is(BigInt(sp.value), expected);
    const nodes = sp.proof.map((n: string) => hexToBytes(n as `0x${string}`));
    const key = setLengthLeft(hexToBytes('0x00'), 32);
    const proven = await verifyMerkleProof(key, nodes, { root: hexToBytes(proof.storageHash), useKeyHashing: true });
    assert.ok(proven, 'slot 0 is in the storage trie');
    assert.is(bytesToBigInt(RLP.decode(proven!) as Uint8Array), expected);
  }
});

Methods('eth_getProof: a proof checked against a different root is refused; an absent account proves absence', async () => {
  const { store, deploy, set } = await storeFixture();
  const proof = await call('eth_getProof', [store, [], set.number]);
  const nodes = proof.accountProof.map((n: string) => hexToBytes(n as `0x${string}`));
  let threw = false;
  try {
    await verifyMerkleProof(hexToBytes(store as `0x${string}`), nodes, { root: hexToBytes(deploy.stateRoot), useKeyHashing: true });
  } catch {
    threw = true;
  }
  assert.ok(threw, 'the proof of one block does not verify against another block root');
  const absent = await verifyAccountProof('0x3333333333333333333333333333333333333334', set.number);
  assert.is(absent.value, null);
  assert.is(absent.proof.balance, '0x0');
  assert.is(absent.proof.nonce, '0x0');
});

Methods("eth_getProof at 'earliest' proves the genesis state", async () => {
  const { store } = await storeFixture();
  const dev = await verifyAccountProof(devB, 'earliest');
  assert.is(dev.header.number, '0x0');
  assert.is(dev.proof.balance, hexQ(10n ** 30n), 'the genesis allocation');
  const [, balance] = RLP.decode(dev.value!) as Uint8Array[];
  assert.is(hexQ(bytesToBigInt(balance!)), dev.proof.balance);
  assert.is((await verifyAccountProof(store, 'earliest')).value, null, 'the contract did not exist yet');
});

// ---------------------------------------------------------------- block selectors

const selectorsOf = (b: any) => [b.number, { blockNumber: b.number }, b.hash, { blockHash: b.hash }, { blockHash: b.hash, requireCanonical: true }];

Methods('every block selector form reads code, storage, nonce and balance at that block', async () => {
  const { store, deploy, set } = await storeFixture();
  const before = await block(BigInt(deploy.number) - 1n);
  const nonceAt = async (b: any) => call('eth_getTransactionCount', [devA, b.number]);
  for (const [b, code, slot0] of [[before, false, 0n], [deploy, true, 42n], [set, true, 7n]] as const) {
    const nonce = await nonceAt(b);
    const balance = await call('eth_getBalance', [devA, b.number]);
    for (const sel of selectorsOf(b)) {
      const what = `${JSON.stringify(sel)} (block ${b.number})`;
      const c = await call<string>('eth_getCode', [store, sel]);
      assert.is(c.length > 2, code, what);
      assert.is(await call('eth_getStorageAt', [store, '0x0', sel]), word(slot0), what);
      assert.is(await call('eth_getTransactionCount', [devA, sel]), nonce, what);
      assert.is(await call('eth_getBalance', [devA, sel]), balance, what);
    }
  }
  assert.is(await nonceAt(deploy), hexQ(BigInt(await nonceAt(before)) + 1n));
});

Methods("'earliest' and 0x0 read the genesis state; latest is the default where the block is optional", async () => {
  const { store } = await storeFixture();
  for (const sel of ['earliest', '0x0', { blockNumber: '0x0' }, { blockNumber: 'earliest' }]) {
    assert.is(await call('eth_getCode', [store, sel]), '0x');
    assert.is(await call('eth_getStorageAt', [store, '0x0', sel]), ZERO32);
    assert.is(await call('eth_getTransactionCount', [devA, sel]), '0x0');
    assert.is(await call('eth_getBalance', [devA, sel]), hexQ(10n ** 30n));
  }
  assert.is(await call('eth_getStorageAt', [store, '0x0', 'latest']), word(7n));
  assert.is(await call('eth_getBalance', [devA]), await call('eth_getBalance', [devA, 'latest']));
  assert.is(await call('eth_getTransactionCount', [devA]), await call('eth_getTransactionCount', [devA, 'latest']));
  // mapping entry: keccak(key . slot 1)
  const slot = ethers.keccak256(ethers.concat([ethers.zeroPadValue(devA, 32), ethers.zeroPadValue('0x01', 32)]));
  assert.is(await call('eth_getStorageAt', [store, slot, 'latest']), word(7n));
});

// ---------------------------------------------------------------- lookups

Methods('unknown hashes and numbers beyond the tip give null', async () => {
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

Methods('uncle lookups on a block without uncles: count 0x0, uncle by index null', async () => {
  const { deploy } = await storeFixture();
  assert.equal(deploy.uncles, []);
  assert.is(deploy.sha3Uncles, EMPTY_UNCLES_HASH);
  assert.is(await call('eth_getUncleCountByBlockHash', [deploy.hash]), '0x0');
  assert.is(await call('eth_getUncleCountByBlockNumber', [deploy.number]), '0x0');
  assert.is(await call('eth_getUncleCountByBlockNumber', ['latest']), '0x0');
  assert.is(await call('eth_getUncleByBlockHashAndIndex', [deploy.hash, '0x0']), null);
  assert.is(await call('eth_getUncleByBlockNumberAndIndex', [deploy.number, '0x0']), null);
});

Methods('transaction counts per block by hash and by number', async () => {
  const { deploy } = await storeFixture();
  assert.is(await call('eth_getBlockTransactionCountByHash', [deploy.hash]), '0x1');
  assert.is(await call('eth_getBlockTransactionCountByNumber', [deploy.number]), '0x1');
  assert.is(await call('eth_getBlockTransactionCountByNumber', ['earliest']), '0x0');
  const genesis = await block(0);
  assert.is(await call('eth_getBlockTransactionCountByHash', [genesis.hash]), '0x0');
});

Methods('transactions by block hash/number and index equal the lookup by hash', async () => {
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

Methods('a block object has every field of spec 2.4 with the right encoding', async () => {
  const { set } = await storeFixture();
  const b = await call('eth_getBlockByNumber', [set.number, true]);
  const parent = await block(BigInt(b.number) - 1n);
  const fields: Record<string, RegExp> = {
    number: QTY, hash: DATA(32), parentHash: DATA(32), nonce: DATA(8), sha3Uncles: DATA(32), logsBloom: DATA(256),
    transactionsRoot: DATA(32), stateRoot: DATA(32), receiptsRoot: DATA(32), miner: DATA(20), difficulty: QTY, totalDifficulty: QTY,
    cumulativeDifficulty: QTY, extraData: DATA(), size: QTY, gasLimit: QTY, gasUsed: QTY, timestamp: QTY, minimumGasPrice: QTY,
    paidFees: QTY, hashForMergedMining: DATA(32), parentChainMergedMiningHeader: DATA(80),
    parentChainMergedMiningCoinbaseTransaction: DATA(), parentChainMergedMiningMerkleProof: DATA(),
  };
  for (const [name, format] of Object.entries(fields)) assert.match(b[name], format, `${name} = ${b[name]}`);
  assert.ok(Array.isArray(b.transactions) && Array.isArray(b.uncles));
  assert.is(b.hash, set.hash);
  assert.is(b.parentHash, parent.hash);
  assert.is(b.miner, MINER);
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

Methods('the latest block and the genesis block', async () => {
  const latest = await call('eth_getBlockByNumber', ['latest', false]);
  assert.is(latest.number, await call('eth_blockNumber'));
  const genesis = await call('eth_getBlockByNumber', ['earliest', false]);
  assert.is(genesis.number, '0x0');
  assert.is(genesis.parentHash, ZERO32);
  assert.equal(await call('eth_getBlockByNumber', ['0x0', false]), genesis);
});

// ---------------------------------------------------------------- gas

Methods('eth_estimateGas of a plain transfer is 21000', async () => {
  assert.is(await call('eth_estimateGas', [{ from: devC, to: '0x4444444444444444444444444444444444444444', value: '0x1' }]), hexQ(21_000));
});

Methods('eth_estimateGas charges calldata bytes and access-list entries (EIP-2028, EIP-2930)', async () => {
  const key = (n: number) => '0x' + n.toString(16).padStart(64, '0');
  const accessList = [{ address: '0x5555555555555555555555555555555555555555', storageKeys: [key(1), key(2)] }];
  const transfer = { from: devC, to: '0x4444444444444444444444444444444444444444', value: '0x1', data: '0x0001' };
  // 21000 + 4 (zero byte) + 16 (non-zero byte), then + 2400 per address + 1900 per storage key
  assert.is(await call('eth_estimateGas', [transfer]), hexQ(21_020));
  assert.is(await call('eth_estimateGas', [{ ...transfer, accessList }]), hexQ(21_020 + 2_400 + 2 * 1_900));
});

Methods('eth_estimateGas returns the smallest gas that succeeds (a call: one less fails on chain)', async () => {
  const { store } = await storeFixture();
  const data = iface.encodeFunctionData('set', [77n]);
  const estimate = BigInt(await call<string>('eth_estimateGas', [{ from: devC, to: store, data }]));
  assert.ok(estimate > 21_000n);
  const short = await sendAndMine({ from: devC, to: store, data, gas: hexQ(estimate - 1n) });
  assert.is(short.status, '0x0', 'estimate - 1 runs out of gas');
  assert.is(short.gasUsed, hexQ(estimate - 1n));
  assert.is(await call('eth_call', [{ to: store, data: iface.encodeFunctionData('value') }, 'latest']), word(7n));
  const exact = await sendAndMine({ from: devC, to: store, data, gas: hexQ(estimate) });
  assert.is(exact.status, '0x1', 'the estimate itself succeeds');
  assert.is(await call('eth_call', [{ to: store, data: iface.encodeFunctionData('value') }, 'latest']), word(77n));
});

Methods('eth_estimateGas of a deployment is the smallest gas that deploys', async () => {
  const data = bytecode + iface.encodeDeploy([1n]).slice(2);
  const estimate = BigInt(await call<string>('eth_estimateGas', [{ from: devC, data }]));
  const short = await sendAndMine({ from: devC, data, gas: hexQ(estimate - 1n) });
  assert.is(short.status, '0x0');
  const exact = await sendAndMine({ from: devC, data, gas: hexQ(estimate) });
  assert.is(exact.status, '0x1');
  assert.match(exact.contractAddress, DATA(20));
  assert.ok((await call<string>('eth_getCode', [exact.contractAddress, 'latest'])).length > 2);
});

Methods("eth_call: a call's writes never reach later calls; calls alternating between blocks read each block's state", async () => {
  const { store, deploy, set } = await storeFixture();
  const value = { to: store, data: iface.encodeFunctionData('value') };
  const credits = { to: store, data: iface.encodeFunctionData('credits', [devC]) };
  const write = { from: devC, to: store, data: iface.encodeFunctionData('set', [99n]) };
  const checks = [
    () => call('eth_call', [write, set.number]).then((r) => assert.is(r, '0x')),
    () => call('eth_call', [value, set.number]).then((r) => assert.is(r, word(7n))),
    () => call('eth_call', [credits, set.number]).then((r) => assert.is(r, word(0n))),
    () => call('eth_call', [value, deploy.number]).then((r) => assert.is(r, word(42n))),
    () => call('eth_call', [write, deploy.number]).then((r) => assert.is(r, '0x')),
    () => call('eth_call', [credits, deploy.number]).then((r) => assert.is(r, word(0n))),
  ];
  // one after another (the same pooled VM each time), then all at once (several VMs)
  for (let i = 0; i < 3; i++) for (const check of checks) await check();
  await Promise.all([...checks, ...checks, ...checks].map((check) => check()));
});

Methods('eth_call honours the gas limit it is given', async () => {
  const { store } = await storeFixture();
  const read = { to: store, data: iface.encodeFunctionData('value') };
  assert.is(await call('eth_call', [{ ...read, gas: hexQ(30_000) }, 'latest']), word(77n));
  // 21100 covers the intrinsic cost but not the cold SLOAD: an error, or (as the reference does) empty data, never the value
  const { json } = await post(await url(), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ ...read, gas: hexQ(21_100) }, 'latest'] }));
  assert.ok(json.error ? json.error.code !== -32603 : json.result === '0x', JSON.stringify(json));
});

Methods('paidFees equals the sum of gasUsed × gasPrice of the block transactions', async () => {
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

Methods.run();

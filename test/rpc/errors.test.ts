/**
 * Error codes over raw HTTP: -32602 naming the bad parameter, never -32603 for bad input, -32015 reverts
 * with the raw revert data, -32010 for every reason the pool refuses a transaction, -32602 for
 * undecodable raw transactions. After each bad input the node must still answer.
 */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../helpers/node.ts';
import { post, waitUntil } from '../helpers/rpc.ts';
import { compileFixture } from '../helpers/solc.ts';

const DEV_KEYS = {
  a: '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4',
  b: '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
  c: '0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d',
};
const devA = new ethers.Wallet(DEV_KEYS.a);
const devB = new ethers.Wallet(DEV_KEYS.b);
const devC = new ethers.Wallet(DEV_KEYS.c);
/** An address the node holds no key for. */
const OTHER = '0x1111111111111111111111111111111111111111';
const VM_PREFIX = 'VM Exception while processing transaction: ';

const { abi, bytecode } = compileFixture('Store.sol', 'Store');
const iface = new ethers.Interface(abi);

/** The node, started on first use inside a test. */
const { url, call, fails, stop } = lazyNode();

/** After a bad input the node must still serve ordinary requests. */
async function assertAlive() {
  assert.match(await call<string>('eth_blockNumber'), /^0x[0-9a-f]+$/);
}

async function receiptOf(hash: string) {
  return waitUntil(() => call('eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined), { what: `receipt of ${hash}` });
}

const nonceOf = async (address: string) => BigInt(await call<string>('eth_getTransactionCount', [address, 'pending']));

/** A signed legacy transfer of devA (or another wallet), chain 33, with fields overridable. */
async function signed(fields: ethers.TransactionRequest = {}, wallet: ethers.Wallet = devA): Promise<string> {
  return wallet.signTransaction({
    type: 0, chainId: 33, nonce: Number(await nonceOf(wallet.address)), gasLimit: 21_000, gasPrice: 0, to: OTHER, value: 1, ...fields,
  });
}

/** Sends a raw transaction expected to be refused by the pool with -32010 and a message matching `reason`. */
async function assertRejected(raw: string, reason: RegExp) {
  const err = await fails('eth_sendRawTransaction', [raw]);
  assert.is(err.code, -32010, `${err.code} ${err.message}`);
  assert.match(err.message, reason);
  await assertAlive();
}

let store: string;
async function deployStore(): Promise<string> {
  const data = bytecode + iface.encodeDeploy([42n]).slice(2);
  const hash = await call<string>('eth_sendTransaction', [{ from: devA.address, data, gas: '0x2dc6c0' }]);
  const receipt = await receiptOf(hash);
  assert.is(receipt.status, '0x1');
  return receipt.contractAddress;
}

const Errors = suite('JSON-RPC errors');
Errors.after(stop);

// ---------------------------------------------------------------- -32602

const ZERO_ADDR = '0x0000000000000000000000000000000000000000';
const BAD_PARAMS: [what: string, method: string, params: unknown[], names: RegExp][] = [
  ['address too short', 'eth_getBalance', ['0x1234', 'latest'], /address/],
  ['address too long', 'eth_getBalance', [`${ZERO_ADDR}00`, 'latest'], /address/],
  ['address not hex', 'eth_getBalance', [`0x${'zz'.repeat(20)}`, 'latest'], /address/],
  ['address without 0x', 'eth_getCode', ['00'.repeat(20), 'latest'], /address/],
  ['address is a number', 'eth_getTransactionCount', [123, 'latest'], /address/],
  ['missing required address', 'eth_getBalance', [], /address/],
  ['missing required hash', 'eth_getBlockByHash', [], /hash/],
  ['hash too short', 'eth_getBlockByHash', ['0x1234', false], /hash/],
  ['hash not hex', 'eth_getTransactionByHash', [`0x${'g'.repeat(64)}`], /hash/],
  ['too many params', 'eth_blockNumber', [1], /argument|param/i],
  ['too many params for getBalance', 'eth_getBalance', [ZERO_ADDR, 'latest', 'extra'], /argument|param/i],
  ['unknown block tag', 'eth_getBalance', [ZERO_ADDR, 'newest'], /block/],
  ['block number not hex', 'eth_getBlockByNumber', ['12', false], /block/],
  ['block number empty hex', 'eth_getBlockByNumber', ['0x', false], /block/],
  ['bad bool', 'eth_getBlockByNumber', ['latest', 'yes'], /full/],
  ['bad bool (number)', 'eth_getBlockByHash', [`0x${'00'.repeat(32)}`, 1], /full/],
  ['storage position not hex', 'eth_getStorageAt', [ZERO_ADDR, 'zz', 'latest'], /position/],
  ['index not a quantity', 'eth_getTransactionByBlockNumberAndIndex', ['latest', 'first'], /index/],
  ['call object not an object', 'eth_call', ['0x00', 'latest'], /call/],
  ['call.to bad', 'eth_call', [{ to: '0x12' }, 'latest'], /to/],
  ['eth_sendTransaction without from (required)', 'eth_sendTransaction', [{ to: ZERO_ADDR }], /missing argument 0 \(transaction\)\.from/],
  ['call.gas not hex', 'eth_estimateGas', [{ to: ZERO_ADDR, gas: 21000 }], /gas/],
  ['call.data odd length', 'eth_call', [{ to: ZERO_ADDR, data: '0x123' }, 'latest'], /data/],
  ['web3_sha3 of non-hex', 'web3_sha3', ['hello'], /invalid argument 0 \(data\): expected hex data/],
  ['web3_sha3 of odd-length hex', 'web3_sha3', ['0x123'], /invalid argument 0 \(data\)/],
  ['web3_sha3 of a number', 'web3_sha3', [1], /invalid argument 0 \(data\)/],
  ['web3_sha3 missing data', 'web3_sha3', [], /missing argument 0 \(data\)/],
  ['web3_sha3 with two arguments', 'web3_sha3', ['0x00', '0x00'], /too many arguments: this method takes at most 1/],
  // These block selectors are required (docs/rpc-conformance.md "Required parameters"); eth_getBalance's and eth_getTransactionCount's are optional.
  ['eth_getStorageAt without a block', 'eth_getStorageAt', [ZERO_ADDR, '0x0'], /missing argument 2 \(block\)/],
  ['eth_getCode without a block', 'eth_getCode', [ZERO_ADDR], /missing argument 1 \(block\)/],
  ['eth_getProof without a block', 'eth_getProof', [ZERO_ADDR, []], /missing argument 2 \(block\)/],
  ['raw tx not hex', 'eth_sendRawTransaction', ['hello'], /transaction/],
  ['eth_sign bad address', 'eth_sign', ['0x12', '0x00'], /address/],
  ['storage keys not an array', 'eth_getProof', [ZERO_ADDR, 'nope', 'latest'], /storageKeys/],
  ['blockHash selector bad', 'eth_getBalance', [ZERO_ADDR, { blockHash: '0x12' }], /blockHash/],
];

for (const [what, method, params, names] of BAD_PARAMS) {
  Errors(`-32602 for ${what} (${method}), naming the parameter`, async () => {
    const err = await fails(method, params);
    assert.is(err.code, -32602, `${method}(${JSON.stringify(params)}) gave ${err.code} ${err.message}`);
    assert.match(err.message, names);
    await assertAlive();
  });
}

Errors('bad input never yields -32603 (internal error)', async () => {
  const weird: unknown[] = [null, true, -1, 1.5, '', '0x', '0x0', '0xzz', '-0x1', [], {}, { blockHash: null }, { blockNumber: 'x' },
    `0x${'f'.repeat(65)}`, `0x${'f'.repeat(64)}`, 'pending', 'earliest', '0x1'.padEnd(70, '0')];
  const methods = ['eth_getBalance', 'eth_getCode', 'eth_getStorageAt', 'eth_getTransactionCount', 'eth_getBlockByHash', 'eth_getBlockByNumber',
    'eth_getBlockTransactionCountByHash', 'eth_getBlockTransactionCountByNumber', 'eth_getUncleCountByBlockHash', 'eth_getUncleCountByBlockNumber',
    'eth_getUncleByBlockHashAndIndex', 'eth_getUncleByBlockNumberAndIndex', 'eth_getTransactionByHash', 'eth_getTransactionByBlockHashAndIndex',
    'eth_getTransactionByBlockNumberAndIndex', 'eth_getTransactionReceipt', 'eth_call', 'eth_estimateGas', 'eth_sendRawTransaction',
    'eth_sendTransaction', 'eth_sign', 'eth_getProof', 'web3_sha3'];
  const internal: string[] = [];
  for (const method of methods) {
    for (const a of weird) {
      for (const params of [[a], [ZERO_ADDR, a], [ZERO_ADDR, a, a], [`0x${'00'.repeat(32)}`, a], ['latest', a], [{ to: ZERO_ADDR, value: a }, 'latest']]) {
        const { json } = await post(await url(), JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
        if (json.error?.code === -32603) internal.push(`${method} ${JSON.stringify(params)} -> ${json.error.message}`);
      }
    }
  }
  assert.equal(internal, [], `internal errors for bad input:\n${internal.join('\n')}`);
  await assertAlive();
});

Errors('state reads at a block beyond the tip are an error, not a made-up answer', async () => {
  const err = await fails('eth_getBalance', [ZERO_ADDR, '0xffffff']);
  // EIP-1474's "resource not found": -32600 would say the request itself was malformed.
  assert.is(err.code, -32001, `${err.code} ${err.message}`);
  assert.match(err.message, /Block 0xffffff not found/);
  const byHash = await fails('eth_getCode', [ZERO_ADDR, { blockHash: `0x${'11'.repeat(32)}` }]);
  assert.is(byHash.code, -32001, `${byHash.code} ${byHash.message}`);
});

// ---------------------------------------------------------------- -32015

Errors('eth_call revert with a reason: -32015, VM exception text, raw Error(string) data', async () => {
  store = await deployStore();
  const data = iface.encodeFunctionData('set', [13n]);
  const err = await fails('eth_call', [{ from: devA.address, to: store, data }, 'latest']);
  assert.is(err.code, -32015);
  assert.ok(err.message.startsWith(`${VM_PREFIX}revert unlucky number`), err.message);
  assert.ok(err.data?.startsWith('0x08c379a0'), `data ${err.data}`);
  assert.is(err.data, new ethers.Interface(['error Error(string)']).encodeErrorResult('Error', ['unlucky number']));
  await assertAlive();
});

Errors('eth_estimateGas revert with a reason: the same -32015 error', async () => {
  const data = iface.encodeFunctionData('set', [13n]);
  const err = await fails('eth_estimateGas', [{ from: devA.address, to: store, data }]);
  assert.is(err.code, -32015);
  assert.ok(err.message.startsWith(`${VM_PREFIX}revert unlucky number`), err.message);
  assert.ok(err.data?.startsWith('0x08c379a0'), `data ${err.data}`);
  assert.is(iface.parseError(err.data!)?.args[0], 'unlucky number');
});

Errors('custom error: -32015 "transaction reverted" with the Custom selector and argument as data', async () => {
  const selector = iface.getError('Custom')!.selector;
  const data = iface.encodeFunctionData('fail', [5n]);
  for (const method of ['eth_call', 'eth_estimateGas']) {
    const err = await fails(method, [{ to: store, data }, 'latest']);
    assert.is(err.code, -32015, method);
    assert.is(err.message, `${VM_PREFIX}transaction reverted`, method);
    assert.ok(err.data?.startsWith(selector), `${method} data ${err.data}`);
    const parsed = iface.parseError(err.data!);
    assert.is(parsed?.name, 'Custom');
    assert.is(parsed?.args[0], 5n);
  }
});

// ---------------------------------------------------------------- -32016

Errors('VM failures that are not reverts are -32016 with their own message, never -32015', async () => {
  // Runtime code 0xfe (INVALID): PUSH1 0xfe PUSH1 0 MSTORE8 PUSH1 1 PUSH1 0 RETURN.
  const hash = await call<string>('eth_sendTransaction', [{ from: devA.address, data: '0x60fe60005360016000f3', gas: '0x186a0' }]);
  const invalid = (await receiptOf(hash)).contractAddress;
  const opcode = await fails('eth_call', [{ to: invalid }, 'latest']);
  assert.equal([opcode.code, opcode.message, opcode.data], [-32016, 'VM execution failed: invalid opcode', undefined]);
  const outOfGas = await fails('eth_call', [{ to: store, data: iface.encodeFunctionData('set', [7n]), gas: '0x7530' }, 'latest']);
  assert.equal([outOfGas.code, outOfGas.message], [-32016, 'VM execution failed: out of gas']);
  const allowance = await fails('eth_estimateGas', [{ to: store, data: iface.encodeFunctionData('set', [7n]), gas: '0x7530' }]);
  assert.equal([allowance.code, allowance.message], [-32016, 'gas required exceeds allowance (30000) or always failing transaction: out of gas']);
  // Without a gas limit the bound is the pending block's gas limit, not latest's: they differ while it moves to its target.
  const [pending, latest] = await Promise.all(['pending', 'latest'].map((tag) => call('eth_getBlockByNumber', [tag, false])));
  assert.is.not(pending.gasLimit, latest.gasLimit);
  const always = await fails('eth_estimateGas', [{ to: invalid }]);
  assert.equal([always.code, always.message], [-32016, `gas required exceeds allowance (${BigInt(pending.gasLimit)}) or always failing transaction: invalid opcode`]);
  await assertAlive();
});

Errors('eth_call at a block where the contract does not exist yet returns empty data, not an error', async () => {
  assert.is(await call('eth_call', [{ to: store, data: iface.encodeFunctionData('value') }, '0x0']), '0x');
});

// ---------------------------------------------------------------- -32010

Errors('-32010 nonce too low', async () => {
  // devA has deployed Store, so its nonce is at least 1
  assert.ok((await nonceOf(devA.address)) >= 1n);
  await assertRejected(await signed({ nonce: 0 }), /nonce too low/);
});

Errors('-32010 insufficient funds (fresh key, gas price > 0; and value > 0)', async () => {
  const poor = ethers.Wallet.createRandom();
  await assertRejected(await signed({ gasPrice: 1, value: 0 }, poor as unknown as ethers.Wallet), /insufficient funds/);
  await assertRejected(await signed({ gasPrice: 0, value: 1 }, poor as unknown as ethers.Wallet), /insufficient funds/);
});

Errors('-32010 intrinsic gas too low (gas limit 20000 for a transfer)', async () => {
  await assertRejected(await signed({ gasLimit: 20_000 }), /basic cost|intrinsic/i);
});

Errors('-32010 wrong chain id (signed for chain 1), legacy and EIP-2930', async () => {
  await assertRejected(await signed({ chainId: 1 }), /chain ?id/i);
  await assertRejected(await signed({ chainId: 1, type: 1, accessList: [] }), /chain ?id/i);
});

Errors('-32010 oversized transaction (> 128 KiB)', async () => {
  const raw = await signed({ data: `0x${'01'.repeat(140_000)}`, gasLimit: 6_000_000, to: OTHER });
  await assertRejected(raw, /size/);
});

Errors('-32010 unsupported transaction type (EIP-4844 blob transaction)', async () => {
  await assertRejected(`0x03${ethers.encodeRlp([ethers.toBeHex(33), '0x', '0x01']).slice(2)}`, /transaction type 3 is not supported/);
});

Errors('-32010 gas limit above the block gas limit', async () => {
  await assertRejected(await signed({ gasLimit: 100_000_000 }), /gas limit/);
});

Errors('-32010 duplicate: the same transaction sent twice while it waits in the pool', async () => {
  // A nonce gap keeps the transaction queued, so the second copy meets the first in the pool.
  const raw = await signed({ nonce: Number(await nonceOf(devB.address)) + 1 }, devB);
  const hash = await call<string>('eth_sendRawTransaction', [raw]);
  assert.is(hash, ethers.keccak256(raw));
  await assertRejected(raw, /same hash|already/);
});

Errors('a replacement with too low a gas price is -32010', async () => {
  const nonce = Number(await nonceOf(devC.address)) + 1; // queued behind a gap: stays in the pool
  await call('eth_sendRawTransaction', [await signed({ nonce, gasPrice: 100 }, devC)]);
  await assertRejected(await signed({ nonce, gasPrice: 101, value: 2 }, devC), /gas price not enough to bump|bump/);
});

Errors('an accepted valid transaction still goes through after all the rejections', async () => {
  const hash = await call<string>('eth_sendRawTransaction', [await signed()]);
  const receipt = await receiptOf(hash);
  assert.is(receipt.status, '0x1');
});

// ---------------------------------------------------------------- -32602 for raw bytes

Errors('-32602 for undecodable raw transaction bytes', async () => {
  for (const raw of ['0xdeadbeef', '0xc0', '0xf8', '0x01c0', '0x01deadbeef', `0xf86c${'00'.repeat(10)}`]) {
    const err = await fails('eth_sendRawTransaction', [raw]);
    assert.is(err.code, -32602, `${raw}: ${err.code} ${err.message}`);
    await assertAlive();
  }
});

Errors('-32602 for an empty raw transaction (0x)', async () => {
  const err = await fails('eth_sendRawTransaction', ['0x']);
  assert.is(err.code, -32602, `${err.code} ${err.message}`);
  await assertAlive();
});

Errors('eth_sendTransaction from an account the node does not hold is -32602', async () => {
  const err = await fails('eth_sendTransaction', [{ from: OTHER, to: ZERO_ADDR, value: '0x1' }]);
  assert.is(err.code, -32602);
  assert.match(err.message, /account/i);
  const sign = await fails('eth_sign', [OTHER, '0x1234']);
  assert.is(sign.code, -32602);
  assert.match(sign.message, /account/i);
});

Errors.run();

/** viem against a real node: deploy, reads at past blocks, writes, events, reverts, both transaction types. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, decodeErrorResult, decodeEventLog, defineChain, http, RpcRequestError,
  parseEther, type Address, type Hex, type PublicClient, type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { compileFixture } from '../helpers/solc.ts';

const DEV_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const SECOND_KEY = '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae';
const { abi, bytecode } = compileFixture('Store.sol', 'Store');

const account = privateKeyToAccount(DEV_KEY);
const second = privateKeyToAccount(SECOND_KEY);

let node: TestNode | undefined;
let publicClient: PublicClient;
let wallet: WalletClient;
let ready: Promise<void> | undefined;

/** Starts the node on first use (inside a test, so a failing start fails that test). */
function setup(): Promise<void> {
  ready ??= (async () => {
    node = await startTestNode();
    const chain = defineChain({
      id: 33, name: 'mmnode regtest', nativeCurrency: { name: 'Native', symbol: 'NAT', decimals: 18 },
      rpcUrls: { default: { http: [node.url] } },
    });
    publicClient = createPublicClient({ chain, transport: http(node.url), pollingInterval: 50, cacheTime: 0 });
    wallet = createWalletClient({ chain, transport: http(node.url), account, pollingInterval: 50, cacheTime: 0 });
  })();
  return ready;
}

/**
 * The revert a rejected call carries, decoded with the contract ABI. The node answers reverts as the
 * reference does (code -32015, raw revert data in `error.data`); viem only builds a
 * ContractFunctionRevertedError itself for codes 3 / -32603, so we find the RPC error in the cause
 * chain and decode its data the way a viem user would (decodeErrorResult).
 */
async function revertOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    assert.instance(err, BaseError);
    const rpcErr = (err as BaseError).walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
    assert.ok(rpcErr, `expected the node's JSON-RPC error in: ${(err as Error).message}`);
    assert.is(rpcErr!.code, -32015);
    assert.ok(rpcErr!.details.startsWith('VM Exception while processing transaction: '), rpcErr!.details);
    const data = (rpcErr as unknown as { data?: Hex }).data;
    assert.type(data, 'string', 'the error carries the raw revert data');
    return { details: rpcErr!.details, data: data!, decoded: decodeErrorResult({ abi, data: data! }) };
  }
  throw new assert.Assertion({ message: 'expected the call to revert', expects: 'rejection', actual: 'resolved', operator: 'rejects' });
}

const mined = async (hash: Hex) => {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 20_000 });
  assert.is(receipt.status, 'success', `transaction ${hash} failed`);
  return receipt;
};

const Viem = suite('viem');

let store: Address;
let deployHash: Hex;
let deployBlock: bigint;
let setBlock: bigint;

Viem.after(async () => { await node?.stop(); });

Viem('deploys Store(42) and reads value', async () => {
  await setup();
  deployHash = await wallet.deployContract({ abi, bytecode, args: [42n], account, chain: wallet.chain });
  const receipt = await mined(deployHash);
  assert.ok(receipt.contractAddress, 'receipt has a contractAddress');
  store = receipt.contractAddress!;
  deployBlock = receipt.blockNumber;
  assert.is(await publicClient.readContract({ address: store, abi, functionName: 'value' }), 42n);
  const code = await publicClient.getCode({ address: store });
  assert.ok(code && code.length > 100, 'contract code stored');
});

Viem('set(7) is mined and emits Stored(who, 7)', async () => {
  const hash = await wallet.writeContract({ address: store, abi, functionName: 'set', args: [7n], account, chain: wallet.chain });
  const receipt = await mined(hash);
  setBlock = receipt.blockNumber;
  assert.ok(setBlock > deployBlock);
  assert.is(receipt.logs.length, 1);
  const log = receipt.logs[0]!;
  assert.is(log.address.toLowerCase(), store.toLowerCase());
  const event = decodeEventLog({ abi, data: log.data, topics: log.topics }) as { eventName: string; args: unknown };
  assert.is(event.eventName, 'Stored');
  assert.equal(event.args, { who: account.address, value: 7n });
  assert.is(await publicClient.readContract({ address: store, abi, functionName: 'value' }), 7n);
});

Viem('reads contract state at a past block and at latest', async () => {
  const at = (blockNumber?: bigint) => publicClient.readContract({ address: store, abi, functionName: 'value', blockNumber });
  assert.is(await at(deployBlock), 42n);
  assert.is(await at(setBlock), 7n);
  assert.is(await at(), 7n);
  const slot0 = (blockNumber?: bigint) => publicClient.getStorageAt({ address: store, slot: '0x0', blockNumber });
  assert.is(await slot0(deployBlock), `0x${'0'.repeat(62)}2a`);
  assert.is(await slot0(setBlock), `0x${'0'.repeat(63)}7`);
  // Before the deploy there was no contract: empty code, zero storage.
  assert.is(await publicClient.getCode({ address: store, blockNumber: deployBlock - 1n }), undefined);
  assert.is(await slot0(deployBlock - 1n), `0x${'0'.repeat(64)}`);
});

Viem('getBalance and getTransactionCount at past blocks', async () => {
  assert.is(await publicClient.getBalance({ address: account.address, blockNumber: 0n }), 10n ** 30n);
  assert.is(await publicClient.getTransactionCount({ address: account.address, blockNumber: 0n }), 0);
  assert.is(await publicClient.getTransactionCount({ address: account.address, blockNumber: deployBlock }), 1);
  assert.is(await publicClient.getTransactionCount({ address: account.address, blockNumber: setBlock }), 2);
  assert.is(await publicClient.getTransactionCount({ address: account.address }), 2);
  // Gas is free on regtest with min gas price 0, so the balance is unchanged by the two transactions.
  const gasPrice = await publicClient.getGasPrice();
  assert.is(gasPrice, 0n);
  assert.is(await publicClient.getBalance({ address: account.address }), 10n ** 30n);
});

Viem('simulateContract set(13) rejects with the revert reason', async () => {
  const reverted = await revertOf(publicClient.simulateContract({ address: store, abi, functionName: 'set', args: [13n], account }));
  assert.is(reverted.details, 'VM Exception while processing transaction: revert unlucky number');
  assert.is(reverted.decoded.errorName, 'Error');
  assert.equal(reverted.decoded.args, ['unlucky number']);
  // The state is untouched.
  assert.is(await publicClient.readContract({ address: store, abi, functionName: 'value' }), 7n);
});

Viem('fail(5) rejects with the custom error Custom(5)', async () => {
  const reverted = await revertOf(publicClient.readContract({ address: store, abi, functionName: 'fail', args: [5n] }));
  assert.is(reverted.details, 'VM Exception while processing transaction: transaction reverted');
  assert.is(reverted.decoded.errorName, 'Custom');
  assert.equal(reverted.decoded.args, [5n]);
});

Viem('estimateContractGas of set(13) rejects with the revert reason too', async () => {
  const reverted = await revertOf(publicClient.estimateContractGas({ address: store, abi, functionName: 'set', args: [13n], account }));
  assert.is(reverted.details, 'VM Exception while processing transaction: revert unlucky number');
  assert.equal(reverted.decoded.args, ['unlucky number']);
});

Viem('sends a legacy value transfer', async () => {
  const before = await publicClient.getBalance({ address: second.address });
  const hash = await wallet.sendTransaction({ to: second.address, value: parseEther('1.5'), type: 'legacy', account, chain: wallet.chain });
  const receipt = await mined(hash);
  assert.is(receipt.type, 'legacy');
  assert.is(receipt.gasUsed, 21_000n);
  assert.is(await publicClient.getBalance({ address: second.address }), before + parseEther('1.5'));
  const tx = await publicClient.getTransaction({ hash });
  assert.is(tx.type, 'legacy');
  assert.is(tx.chainId, 33);
  assert.is(tx.value, parseEther('1.5'));
});

Viem('sends an EIP-2930 transfer with an access list', async () => {
  const accessList = [{ address: store, storageKeys: [`0x${'0'.repeat(64)}` as Hex] }];
  const hash = await wallet.sendTransaction({ to: second.address, value: 1n, type: 'eip2930', accessList, account, chain: wallet.chain });
  const receipt = await mined(hash);
  assert.is(receipt.type, 'eip2930');
  // 21000 + 2400 per address + 1900 per storage key
  assert.is(receipt.gasUsed, 21_000n + 2_400n + 1_900n);
  const tx = await publicClient.getTransaction({ hash });
  assert.is(tx.type, 'eip2930');
  assert.is(tx.chainId, 33);
  assert.equal(tx.accessList?.map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys })),
    accessList.map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys })));
  assert.is(tx.from.toLowerCase(), account.address.toLowerCase());
});

Viem('a transaction from a second account is signed and mined', async () => {
  const hash = await wallet.writeContract({ address: store, abi, functionName: 'set', args: [8n], account: second, chain: wallet.chain });
  const receipt = await mined(hash);
  assert.is(receipt.from.toLowerCase(), second.address.toLowerCase());
  assert.is(await publicClient.readContract({ address: store, abi, functionName: 'credits', args: [second.address] }), 8n);
  assert.is(await publicClient.readContract({ address: store, abi, functionName: 'credits', args: [account.address] }), 7n);
});

Viem('getBlock with includeTransactions returns full transaction objects', async () => {
  const block = await publicClient.getBlock({ blockNumber: setBlock, includeTransactions: true });
  assert.is(block.number, setBlock);
  assert.is(block.transactions.length, 1);
  const tx = block.transactions[0]!;
  assert.type(tx, 'object');
  assert.is(tx.blockHash, block.hash);
  assert.is(tx.blockNumber, setBlock);
  assert.is(tx.transactionIndex, 0);
  assert.is(tx.from.toLowerCase(), account.address.toLowerCase());
  assert.is(tx.to?.toLowerCase(), store.toLowerCase());
  const byHash = await publicClient.getBlock({ blockHash: block.hash!, includeTransactions: false });
  assert.equal(byHash.transactions, [tx.hash]);
  assert.is(byHash.parentHash, (await publicClient.getBlock({ blockNumber: setBlock - 1n })).hash);
});

Viem('getTransaction and getTransactionReceipt of the deploy', async () => {
  const tx = await publicClient.getTransaction({ hash: deployHash });
  // Blocks carry baseFeePerGas 0, so viem sends EIP-1559; the price paid is the tip (docs/rpc-compatibility.md "Gas price").
  assert.is(tx.type, 'eip1559');
  assert.is(tx.gasPrice, tx.maxPriorityFeePerGas);
  assert.is(tx.from.toLowerCase(), account.address.toLowerCase());
  assert.is(tx.to, null);
  assert.is(tx.blockNumber, deployBlock);
  assert.is(tx.nonce, 0);
  const receipt = await publicClient.getTransactionReceipt({ hash: deployHash });
  assert.is(receipt.type, 'eip1559');
  assert.is(receipt.from.toLowerCase(), account.address.toLowerCase());
  assert.is(receipt.to, null);
  assert.is(receipt.contractAddress?.toLowerCase(), store.toLowerCase());
  assert.is(receipt.effectiveGasPrice, tx.gasPrice);
  assert.ok(receipt.gasUsed > 21_000n);
  assert.is(receipt.cumulativeGasUsed, receipt.gasUsed);
});

Viem('echo(bytes) round-trips data through memory (MCOPY)', async () => {
  for (const data of ['0x', '0xdeadbeef', `0x${'ab'.repeat(33)}`, `0x${Array.from({ length: 300 }, (_, i) => (i % 256).toString(16).padStart(2, '0')).join('')}`] as Hex[]) {
    assert.is(await publicClient.readContract({ address: store, abi, functionName: 'echo', args: [data] }), data);
  }
});

Viem('blockInfo() sees chain id 33 and the context of the block it runs at', async () => {
  const [number, time, miner, chainId] = await publicClient.readContract({
    address: store, abi, functionName: 'blockInfo', blockNumber: setBlock,
  }) as readonly [bigint, bigint, Address, bigint];
  assert.is(chainId, 33n);
  assert.is(await publicClient.getChainId(), 33);
  const block = await publicClient.getBlock({ blockNumber: setBlock });
  assert.is(number, setBlock);
  assert.is(time, block.timestamp);
  assert.is(miner.toLowerCase(), block.miner.toLowerCase());
  assert.is(miner.toLowerCase(), '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d');
});

Viem('with --rpc-revert-code 3, simulateContract decodes the reason string and the custom error itself', async () => {
  const geth = await startTestNode({ rpcRevertCode: 3 });
  try {
    const chain = { ...wallet.chain!, rpcUrls: { default: { http: [geth.url] } } };
    const client = createPublicClient({ chain, transport: http(geth.url), cacheTime: 0 });
    const writer = createWalletClient({ chain, transport: http(geth.url), account, pollingInterval: 50, cacheTime: 0 });
    const hash = await writer.deployContract({ abi, bytecode, args: [1n], account, chain });
    const { contractAddress } = await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 20_000 });
    const revertOfSimulation = async (functionName: 'set' | 'fail', arg: bigint) => {
      try {
        await client.simulateContract({ address: contractAddress!, abi, functionName, args: [arg], account });
      } catch (err) {
        const reverted = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
        assert.ok(reverted, `expected viem's ContractFunctionRevertedError in: ${(err as Error).message}`);
        return reverted!;
      }
      throw new Error(`${functionName}(${arg}) was expected to revert`);
    };
    const reason = await revertOfSimulation('set', 13n);
    assert.is(reason.reason, 'unlucky number');
    const custom = await revertOfSimulation('fail', 5n);
    assert.is(custom.data?.errorName, 'Custom');
    assert.equal(custom.data?.args, [5n]);
  } finally {
    await geth.stop();
  }
});

Viem.run();

/**
 * Block execution runs with the interpreter changes (src/chain/execution/interpreter/) and ends as the
 * library's own EVM does: the same transactions (deployments, storage and mapping writes, events, a
 * revert with a reason, a custom error, a memory copy, nested calls with a caught revert, STATICCALL,
 * DELEGATECALL and a CREATE, storage written and then undone by a caught inner revert or a reverted
 * transaction, a slot written and cleared, a value transfer) give the same status, gas, logs, created addresses and
 * state root through executeBlock as through the library's VM and its step.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ethers } from 'ethers';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, hexToBytes, KECCAK256_RLP, MapDB, setLengthLeft } from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';
import { createChainCommon } from '../../../../src/chain/execution/common.ts';
import { decodeTx, executeBlock, executionBlock, stateManagerAt, type BlockExecutionContext } from '../../../../src/chain/execution/blockRunner.ts';
import { interpreterPrototype } from '../../../../src/chain/execution/interpreter/interpreterClass.ts';
import { NETWORKS } from '../../../../src/chain/execution/networks.ts';
import { compileFixture } from '../../../helpers/solc.ts';

const Execution = suite('block execution with the interpreter changes');

const common = createChainCommon(NETWORKS.regtest);
const wallet = new ethers.Wallet('0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae');
const SENDER = hexToBytes(wallet.address as `0x${string}`);
const BALANCE = 10n ** 21n;
const CTX: BlockExecutionContext = {
  number: 1n, timestamp: 1_700_000_000n, coinbase: hexToBytes('0x1111111111111111111111111111111111111111'), gasLimit: 30_000_000n,
  difficulty: 1n, prevRandao: new Uint8Array(32), minimumGasPrice: 1n,
  stateEdits: [{ address: SENDER, balance: BALANCE }],
};

interface Outcome { status: number; gasUsed: bigint; logs: string; created?: string }

async function transactions(): Promise<TypedTransaction[]> {
  const store = compileFixture('Store.sol', 'Store');
  const caller = compileFixture('Tracing.sol', 'Caller');
  const reverts = compileFixture('Reverts.sol', 'Reverts');
  const storeAt = ethers.getCreateAddress({ from: wallet.address, nonce: 0 });
  const callerAt = ethers.getCreateAddress({ from: wallet.address, nonce: 5 });
  const storeAbi = new ethers.Interface(store.abi);
  const callerAbi = new ethers.Interface(caller.abi);
  const revertsAt = ethers.getCreateAddress({ from: wallet.address, nonce: 8 });
  const revertsAbi = new ethers.Interface(reverts.abi);
  const deployStore = store.bytecode + ethers.AbiCoder.defaultAbiCoder().encode(['uint256'], [7]).slice(2);
  const bodies = [
    { data: deployStore },
    { to: storeAt, data: storeAbi.encodeFunctionData('set', [5]) },
    { to: storeAt, data: storeAbi.encodeFunctionData('set', [13]) }, // reverts: "unlucky number"
    { to: storeAt, data: storeAbi.encodeFunctionData('fail', [3]) }, // reverts with a custom error
    { to: storeAt, data: storeAbi.encodeFunctionData('echo', [ethers.hexlify(ethers.randomBytes(100))]) },
    { data: caller.bytecode },
    { to: callerAt, data: callerAbi.encodeFunctionData('nested', [9]) },
    { to: '0x09a1eda29f664ac8f68106f6567276df0c65d859', value: 12_345n },
    { data: reverts.bytecode },
    { to: revertsAt, data: revertsAbi.encodeFunctionData('mixed', [7]) },
    { to: revertsAt, data: revertsAbi.encodeFunctionData('writeThenFail', [5, 9]) }, // reverts: slot 5 keeps 7
    { to: revertsAt, data: revertsAbi.encodeFunctionData('mixed', [8]) },
  ];
  const raws = await Promise.all(bodies.map((body, nonce) =>
    wallet.signTransaction({ ...body, nonce, gasLimit: 3_000_000, gasPrice: 1_000_000_000, chainId: 33 })));
  return raws.map((raw) => decodeTx(hexToBytes(raw as `0x${string}`), common));
}

const logsOf = (logs: readonly (readonly [Uint8Array, readonly Uint8Array[], Uint8Array])[]) =>
  logs.map(([address, topics, data]) => `${bytesToHex(address)}:${topics.map(bytesToHex).join(',')}:${bytesToHex(data)}`).join(';');

/** The library's VM, with its own step and opcodes, over a state of its own. */
async function withLibrary(txs: readonly TypedTransaction[]): Promise<{ outcomes: Outcome[]; stateRoot: string }> {
  const sm = new MerkleStateManager({ common });
  const vm = await createVM({ common: common.copy(), stateManager: sm });
  await sm.putAccount(new Address(SENDER), new Account(0n, BALANCE));
  const block = executionBlock(CTX, common);
  const outcomes: Outcome[] = [];
  let blockGasUsed = 0n;
  for (const tx of txs) {
    const r = await runTx(vm, { tx, block, blockGasUsed, skipHardForkValidation: true });
    blockGasUsed += r.totalGasSpent;
    const receipt = r.receipt as { status: number; logs: Parameters<typeof logsOf>[0] };
    outcomes.push({ status: receipt.status, gasUsed: r.totalGasSpent, logs: logsOf(receipt.logs), created: r.createdAddress?.toString() });
  }
  return { outcomes, stateRoot: bytesToHex(await sm.getStateRoot()) };
}

Execution('executeBlock gives the library\'s results, gas, logs and state root', async () => {
  const txs = await transactions();
  const proto = (await interpreterPrototype()) as { runStep: unknown };
  const libraryStep = proto.runStep;
  const library = await withLibrary(txs);
  assert.is(proto.runStep, libraryStep, 'the library ran with its own step');

  const result = await executeBlock({ common, trieDb: new MapDB(), blockHash: async () => new Uint8Array(32) }, KECCAK256_RLP, CTX, txs, 'verify');
  assert.is.not(proto.runStep, libraryStep, 'block execution runs opcodes in bursts');
  const outcomes: Outcome[] = result.receipts.map((r) => ({
    status: r.status, gasUsed: r.gasUsed, logs: logsOf(r.logs), created: r.contractAddress && new Address(r.contractAddress).toString(),
  }));
  assert.equal(outcomes, library.outcomes);
  assert.equal(outcomes.map((o) => o.status), [1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1]);
  assert.ok(outcomes[6]!.logs.length > 0, 'the nested call logged');
  assert.is(bytesToHex(result.stateRoot), library.stateRoot);
});

Execution('a contract destroyed in the transaction that made it and made again in the block keeps none of its old storage', async () => {
  const factory = compileFixture('Phoenix.sol', 'Factory');
  const child = compileFixture('Phoenix.sol', 'Child');
  const factoryAt = ethers.getCreateAddress({ from: wallet.address, nonce: 0 });
  const childAt = ethers.getCreate2Address(factoryAt, ethers.ZeroHash, ethers.keccak256(child.bytecode));
  const abi = new ethers.Interface(factory.abi);
  const bodies = [{ data: factory.bytecode }, { to: factoryAt, data: abi.encodeFunctionData('make') }, { to: factoryAt, data: abi.encodeFunctionData('live') }, { to: factoryAt, data: abi.encodeFunctionData('make') }];
  const raws = await Promise.all(bodies.map((body, nonce) => wallet.signTransaction({ ...body, nonce, gasLimit: 3_000_000, gasPrice: 1_000_000_000, chainId: 33 })));
  const txs = raws.map((raw) => decodeTx(hexToBytes(raw as `0x${string}`), common));
  const result = await executeBlock({ common, trieDb: new MapDB(), blockHash: async () => new Uint8Array(32) }, KECCAK256_RLP, CTX, txs, 'verify');
  assert.equal(result.receipts.map((r) => r.status), [1, 1, 1, 1]);
  const state = stateManagerAt(result.overlay, result.stateRoot, common);
  const slot = (n: number) => setLengthLeft(Uint8Array.of(n), 32);
  const address = new Address(hexToBytes(childAt as `0x${string}`));
  assert.ok(await state.getAccount(address), 'the child lives after the second make');
  assert.is(bytesToHex(await state.getStorage(address, slot(0))), '0x', 'slot a, written by the destroyed child, is gone');
  assert.is(bytesToHex(await state.getStorage(address, slot(1))), '0x02');
});

Execution.run();

/**
 * A block runner sent back to an earlier state (evm_revert, a template replaced, a reorg) keeps its state
 * caches, less what the blocks it goes back over changed: a block run after going back gives the results and
 * state root a runner that never ran those blocks gives. The blocks gone back over change balances and nonces,
 * a slot (a later `set` of the earlier value is then a no-op store, with its own gas), a mapping slot no block
 * read before (hardhat_setStorageAt's edit), an account's code (hardhat_setCode's), contracts (made by CREATE2,
 * one destroyed in the transaction that made it) and the coinbase. Past their bound the caches start over.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ethers } from 'ethers';
import { Address, bytesToHex, hexToBytes, KECCAK256_RLP, MapDB, setLengthLeft } from '@ethereumjs/util';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { BlockRunner, decodeTx, type BlockExecutionContext, type ExecutionEnv, type ExecutionResult } from '../../../src/chain/execution/blockRunner.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';
import { compileFixture } from '../../helpers/solc.ts';

const Rewind = suite('block runner sent back to an earlier state');

const common = createChainCommon(NETWORKS.regtest);
const wallet = new ethers.Wallet('0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae');
const second = new ethers.Wallet('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');
const OTHER = '0x09a1eda29f664ac8f68106f6567276df0c65d859';
const store = compileFixture('Store.sol', 'Store');
const factory = compileFixture('Phoenix.sol', 'Factory');
const child = compileFixture('Phoenix.sol', 'Child');
const storeAt = ethers.getCreateAddress({ from: wallet.address, nonce: 0 });
const factoryAt = ethers.getCreateAddress({ from: wallet.address, nonce: 3 });
const childAt = ethers.getCreate2Address(factoryAt, ethers.ZeroHash, ethers.keccak256(child.bytecode));
const storeAbi = new ethers.Interface(store.abi);
const factoryAbi = new ethers.Interface(factory.abi);

const ctx = (number: bigint, stateEdits?: BlockExecutionContext['stateEdits']): BlockExecutionContext => ({
  number, timestamp: 1_700_000_000n + number, coinbase: hexToBytes('0x1111111111111111111111111111111111111111'), gasLimit: 30_000_000n,
  difficulty: 1n, prevRandao: new Uint8Array(32), minimumGasPrice: 1n, stateEdits,
});
const funded = [wallet, second].map((w) => ({ address: hexToBytes(w.address as `0x${string}`), balance: 10n ** 21n }));
/** The code hardhat_setCode gives OTHER in block 2: it reverts whatever it is sent. */
const REVERTS = hexToBytes('0x60006000fd');

type Body = { to?: string; data?: string; value?: bigint; from?: ethers.Wallet };
/** Signed in order, the first wallet's from nonce `first` on (the second sends one transaction a block, its first). */
async function signed(first: number, bodies: Body[]) {
  let nonce = first;
  const raws = [];
  for (const { from = wallet, ...body } of bodies) {
    raws.push(await from.signTransaction({ ...body, nonce: from === wallet ? nonce++ : 0, gasLimit: 3_000_000, gasPrice: 1_000_000_000, chainId: 33 }));
  }
  return raws.map((raw) => decodeTx(hexToBytes(raw as `0x${string}`), common));
}

const BLOCK_1: Body[] = [
  { data: store.bytecode + ethers.AbiCoder.defaultAbiCoder().encode(['uint256'], [7]).slice(2) },
  { to: storeAt, data: storeAbi.encodeFunctionData('set', [5]) },
  { to: OTHER, value: 1_000n },
  { data: factory.bytecode },
];
/** Gone back over: a slot and mapping slots written, a balance moved, a child made and destroyed, then made to live. */
const BLOCK_2: Body[] = [
  { to: storeAt, data: storeAbi.encodeFunctionData('set', [9]) },
  { to: OTHER, value: 500n },
  { to: factoryAt, data: factoryAbi.encodeFunctionData('make') },
  { to: factoryAt, data: factoryAbi.encodeFunctionData('live') },
  { to: factoryAt, data: factoryAbi.encodeFunctionData('make') },
];
/** Run instead of block 2: the slot set to the value it has there, OTHER (no code there) paid, the child (none either) called, made and destroyed. */
const INSTEAD: Body[] = [
  { to: storeAt, data: storeAbi.encodeFunctionData('set', [5]) },
  { to: storeAt, data: storeAbi.encodeFunctionData('set', [3]), from: second },
  { to: OTHER, value: 1n },
  { to: childAt, data: '0x0dbe671f' },
  { to: factoryAt, data: factoryAbi.encodeFunctionData('make') },
  { to: storeAt, data: storeAbi.encodeFunctionData('credits', [wallet.address]) },
];

/** Block 2's edits: OTHER's code, and a slot no block read before, `credits[second]` (hardhat_setStorageAt). */
const BLOCK_2_CTX = ctx(2n, [
  { address: hexToBytes(OTHER), code: REVERTS },
  { address: hexToBytes(storeAt as `0x${string}`), storage: [hexToBytes(ethers.keccak256(ethers.AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [second.address, 1])) as `0x${string}`), setLengthLeft(Uint8Array.of(11), 32)] },
]);

/** Trie nodes of every block run, as the chain writer stores them. */
function environment(): ExecutionEnv {
  return { common, trieDb: new MapDB(), blockHash: async () => new Uint8Array(32) };
}

async function stored(env: ExecutionEnv, result: ExecutionResult): Promise<ExecutionResult> {
  for (const [key, value] of result.overlay.writes) await env.trieDb.put(key, value);
  return result;
}

const outcome = (r: ExecutionResult) => ({
  stateRoot: bytesToHex(r.stateRoot),
  receipts: r.receipts.map((x) => ({ status: x.status, gasUsed: x.gasUsed, logs: x.logs.length, created: x.contractAddress && new Address(x.contractAddress).toString() })),
  rejected: r.rejected.map((x) => x.reason),
});

Rewind('a block run after going back gives what a runner that never ran the later blocks gives', async () => {
  const env = environment();
  const runner = new BlockRunner(env);
  const first = await stored(env, await runner.run(KECCAK256_RLP, ctx(1n, funded), await signed(0, BLOCK_1), 'build'));
  const gone = await stored(env, await runner.run(first.stateRoot, BLOCK_2_CTX, await signed(4, BLOCK_2), 'build'));
  assert.equal(outcome(gone).receipts.map((r) => r.status), [1, 0, 1, 1, 1], 'OTHER reverts the payment with its new code');

  // Back to block 1's state (an evm_revert): block 2's changes to the caches are undone.
  const instead = await runner.run(first.stateRoot, ctx(2n), await signed(4, INSTEAD), 'build');
  const fresh = await new BlockRunner(env).run(first.stateRoot, ctx(2n), await signed(4, INSTEAD), 'build');
  assert.equal(outcome(instead), outcome(fresh));
  assert.equal(outcome(instead).receipts.map((r) => r.status), [1, 1, 1, 1, 1, 1]);
  assert.ok(outcome(instead).receipts[0]!.gasUsed < outcome(gone).receipts[0]!.gasUsed, 'storing the value a slot has costs less than changing it');

  // Block 2 again, after the block run instead: the same state root as the first time.
  const again = await runner.run(first.stateRoot, BLOCK_2_CTX, await signed(4, BLOCK_2), 'build');
  assert.equal(outcome(again), outcome(gone));

  // Back to genesis, over both blocks, and block 1 again.
  const fromGenesis = await runner.run(KECCAK256_RLP, ctx(1n, funded), await signed(0, BLOCK_1), 'build');
  assert.equal(outcome(fromGenesis), outcome(first));
});

Rewind('going back further than the runs it keeps empties the caches and stays right', async () => {
  const env = environment();
  const runner = new BlockRunner(env);
  let result = await stored(env, await runner.run(KECCAK256_RLP, ctx(1n, funded), await signed(0, BLOCK_1), 'build'));
  const base = result.stateRoot;
  for (let n = 0; n < 70; n++) {
    result = await stored(env, await runner.run(result.stateRoot, ctx(2n + BigInt(n)), await signed(4 + n, [{ to: storeAt, data: storeAbi.encodeFunctionData('set', [100 + n]) }]), 'build'));
  }
  const back = await runner.run(base, ctx(2n), await signed(4, INSTEAD), 'build');
  const fresh = await new BlockRunner(env).run(base, ctx(2n), await signed(4, INSTEAD), 'build');
  assert.equal(outcome(back), outcome(fresh));
});

Rewind('the caches start over past their bound, and the blocks after stay right', async () => {
  const env = environment();
  const bounded = new BlockRunner(env, 20);
  let result = await stored(env, await bounded.run(KECCAK256_RLP, ctx(1n, funded), await signed(0, [{ to: OTHER, value: 1n }]), 'build'));
  const sizes: number[] = [];
  for (let n = 0; n < 10; n++) {
    // Five new recipients a block: about seven more entries (with the sender and the coinbase).
    const payments = Array.from({ length: 5 }, (_, i) => ({ to: ethers.zeroPadValue(ethers.toBeHex(0x1000 + n * 5 + i), 20), value: 1n }));
    const parent = result.stateRoot;
    result = await stored(env, await bounded.run(parent, ctx(2n + BigInt(n)), await signed(1 + n * 5, payments), 'build'));
    sizes.push(await bounded.cachedEntries());
    if (n === 9) assert.equal(outcome(result), outcome(await new BlockRunner(env).run(parent, ctx(2n + BigInt(n)), await signed(1 + n * 5, payments), 'build')));
  }
  assert.ok(Math.max(...sizes) <= 20 + 7, `at most the bound and one block's entries: ${sizes.join(', ')}`);
  assert.ok(sizes.some((size, i) => i > 0 && size < sizes[i - 1]!), `they started over: ${sizes.join(', ')}`);
});

Rewind.run();

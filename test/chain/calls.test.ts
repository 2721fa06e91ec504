/**
 * CallExecutor (eth_call, eth_estimateGas, eth_createAccessList underneath) on a standalone regtest chain:
 * intrinsic gas, results of transfers, creations, reverts and failures, calls that leave no trace, the VM
 * pool under concurrency, the touched state it reports, and a deadline that stops a call.
 */
import { createLegacyTx } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { Address, bytesToHex, concatBytes, createContractAddress, hexToBytes } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CallExecutor } from '../../src/chain/calls.ts';
import { CallOverBudget } from '../../src/chain/execution/interpreter/callBudget.ts';
import type { StateEdit } from '../../src/chain/execution/blockRunner.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../src/chain/execution/networks.ts';
import type { StateChanges, StateStep } from '../../src/chain/storage/cacheChanges.ts';
import { openTestChain, type TestChain } from '../helpers/chain.ts';
import { initCodeFor, LOOP, STORE_OR_READ } from '../helpers/initCode.ts';

const DEV = DEV_ACCOUNTS[0]!.address;
const NOBODY = hexToBytes('0x7777777777777777777777777777777777777777');
const GAS = 1_000_000n;
/** Init code that returns BALANCE(address) as a 32-byte word. */
const balanceOf = (address: Uint8Array) => concatBytes(hexToBytes('0x73'), address, hexToBytes('0x3160005260206000f3'));

const Calls = suite('CallExecutor');
let chain: TestChain | undefined;
const open = async () => (chain ??= await openTestChain());
Calls.after(async () => { await chain?.close(); });

Calls('intrinsic gas: 21000, calldata bytes, creation and init-code words, access-list entries', async () => {
  const calls = new CallExecutor((await open()).reader);
  assert.is(calls.intrinsicGas({ to: NOBODY }), 21_000n);
  assert.is(calls.intrinsicGas({ to: NOBODY, data: hexToBytes('0x0001') }), 21_000n + 4n + 16n);
  // Creation: + 32000, + 2 per 32-byte word of init code (EIP-3860).
  assert.is(calls.intrinsicGas({ data: new Uint8Array(33) }), 21_000n + 33n * 4n + 32_000n + 2n * 2n);
  assert.is(calls.intrinsicGas({ to: NOBODY, accessList: [[NOBODY, [new Uint8Array(32), new Uint8Array(32)]]] }), 21_000n + 2_400n + 2n * 1_900n);
});

Calls('a transfer costs 21000; a creation returns its code; a revert and a failure are reported, not thrown', async () => {
  const { reader } = await open();
  const calls = new CallExecutor(reader);
  const head = reader.head().header;
  const transfer = await calls.call(head, { from: DEV, to: NOBODY, value: 5n }, GAS);
  assert.equal([transfer.error, transfer.gasUsed, transfer.returnValue.length], [undefined, 21_000n, 0]);
  // MSTORE8(0, 0x2a); RETURN(0, 1)
  const created = await calls.call(head, { from: DEV, data: hexToBytes('0x602a60005360016000f3') }, GAS);
  assert.is(created.error, undefined);
  assert.is(bytesToHex(created.returnValue), '0x2a');
  const reverted = await calls.call(head, { from: DEV, data: hexToBytes('0x60006000fd') }, GAS);
  assert.is(reverted.error, 'revert');
  const broke = await calls.call(head, { from: NOBODY, to: DEV, value: 1n }, GAS);
  assert.ok(broke.error, 'a value above the balance fails the call');
  const short = await calls.call(head, { from: DEV, to: NOBODY }, 20_999n);
  assert.equal([short.error, short.gasUsed], ['intrinsic gas too low', 20_999n]);
});

Calls('a call writes nothing: the next call sees the state before it, and the chain keeps its root', async () => {
  const { reader } = await open();
  const calls = new CallExecutor(reader, 1);
  const head = reader.head().header;
  await calls.call(head, { from: DEV, to: NOBODY, value: 5n }, GAS);
  const seen = await calls.call(head, { from: DEV, data: balanceOf(NOBODY) }, GAS);
  assert.is(BigInt(bytesToHex(seen.returnValue)), 0n, 'the transfer of the previous call is gone');
  assert.equal(reader.head().header.stateRoot, head.stateRoot);
});

Calls('more calls than VMs wait their turn and all complete, each with its own result', async () => {
  const { reader } = await open();
  const calls = new CallExecutor(reader, 2);
  const head = reader.head().header;
  const results = await Promise.all(DEV_ACCOUNTS.map((a) => calls.call(head, { from: DEV, data: balanceOf(a.address) }, GAS)));
  for (const r of results) assert.is(BigInt(bytesToHex(r.returnValue)), 10n ** 30n, 'each development account holds its genesis balance');
});

Calls('reportAccessList: the touched accounts and slots, with the precompiles to leave out', async () => {
  const { reader } = await open();
  const calls = new CallExecutor(reader);
  const slot = new Uint8Array(32);
  const r = await calls.call(reader.head().header, { from: DEV, data: balanceOf(NOBODY), accessList: [[DEV_ACCOUNTS[1]!.address, [slot]]], reportAccessList: true }, GAS);
  const touched = r.touched!;
  assert.ok(touched.has(bytesToHex(NOBODY).slice(2)), 'the account BALANCE read');
  assert.equal([...touched.get(bytesToHex(DEV_ACCOUNTS[1]!.address).slice(2))!], [bytesToHex(slot).slice(2)], 'the request\'s own list counts as touched');
  assert.ok(r.precompiles!.includes('0000000000000000000000000000000000000001'));
});

/** Init code returning, for each address, what BALANCE of it cost (+ 7 for the PUSH20, POP and GAS around it). */
const balanceCosts = (addresses: readonly Uint8Array[]) => concatBytes(
  ...addresses.map((a, i) => concatBytes(hexToBytes('0x5a73'), a, hexToBytes(`0x31505a900360${(i * 32).toString(16).padStart(2, '0')}52`))),
  hexToBytes(`0x60${(addresses.length * 32).toString(16).padStart(2, '0')}6000f3`),
);

Calls('a call starts warm as a transaction: precompiles, caller, target, coinbase and its access list, a precompile\'s slots included; the next call starts over', async () => {
  const { reader } = await open();
  const calls = new CallExecutor(reader);
  const head = reader.head().header;
  const precompile = hexToBytes('0x0000000000000000000000000000000000000001');
  const pointEvaluation = hexToBytes('0x000000000000000000000000000000000000000a');
  const listed = DEV_ACCOUNTS[1]!.address;
  const addresses = [precompile, pointEvaluation, DEV, head.coinbase, listed, NOBODY, NOBODY];
  const slot = new Uint8Array(32).fill(1);
  const costs = async (accessList: [Uint8Array, Uint8Array[]][]) => {
    const r = await calls.call(head, { from: DEV, data: balanceCosts(addresses), accessList, reportAccessList: true }, GAS);
    assert.is(r.error, undefined);
    return { costs: bytesToHex(r.returnValue).slice(2).match(/.{64}/g)!.map((w) => BigInt(`0x${w}`)), touched: r.touched! };
  };
  const first = await costs([[listed, [slot]], [precompile, [slot]]]);
  // Warm: 100 (+ 7); cold: 2,600, then warm.
  assert.equal(first.costs, [107n, 107n, 107n, 107n, 107n, 2_607n, 107n]);
  assert.equal([...first.touched.get(bytesToHex(precompile).slice(2))!], [bytesToHex(slot).slice(2)]);
  const second = await costs([]);
  assert.equal(second.costs, [107n, 107n, 107n, 107n, 2_607n, 2_607n, 107n]);
  assert.is(second.touched.get(bytesToHex(precompile).slice(2))?.size ?? 0, 0);
});

Calls('one VM keeps its reads per state root: a call after a new head sees the new state, one at an older block the old', async () => {
  const chain = await open();
  const { reader, writer } = chain;
  const calls = new CallExecutor(reader, 1);
  const before = reader.head().header;
  const balanceAt = async (header: typeof before) => BigInt(bytesToHex((await calls.call(header, { from: DEV, data: balanceOf(NOBODY) }, GAS)).returnValue));
  assert.is(await balanceAt(before), 0n);
  assert.is(await balanceAt(before), 0n, 'read again from what the first call kept');
  const nonce = (await reader.stateAt(before.stateRoot).getAccount(new Address(DEV)))?.nonce ?? 0n;
  const tx = createLegacyTx({ nonce, to: NOBODY, value: 5n, gasLimit: 21_000n, gasPrice: 0n }, { common: reader.common }).sign(DEV_ACCOUNTS[0]!.privateKey);
  const template = await writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: [tx], timestamp: before.timestamp + 1n, minimumGasPriceTarget: 0n });
  assert.is((await writer.import(await chain.sealed(template))).result, 'IMPORTED_BEST');
  const after = reader.head().header;
  assert.is(await balanceAt(after), 5n);
  assert.is(await balanceAt(before), 0n, 'the older block');
  assert.is(await balanceAt(after), 5n);
});

const word = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);
/** Runtime: returns 42. */
const RETURN_42 = '602a5f5260205ff3';

/** Mines `txs` (legacy, from the first development account, nonces from its current one) after `stateEdits` on the head; the import's outcome. */
async function mine(chain: TestChain, txs: { to?: Uint8Array; data?: Uint8Array; value?: bigint }[], stateEdits?: StateEdit[]) {
  const { reader, writer } = chain;
  const head = reader.head().header;
  const first = (await reader.stateAt(head.stateRoot).getAccount(new Address(DEV)))?.nonce ?? 0n;
  const signed = txs.map((fields, i) => createLegacyTx({ nonce: first + BigInt(i), gasLimit: 200_000n, gasPrice: 0n, ...fields }, { common: reader.common })
    .sign(DEV_ACCOUNTS[0]!.privateKey));
  const template = await writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: signed, timestamp: head.timestamp + 1n, minimumGasPriceTarget: 0n, stateEdits });
  const outcome = await writer.import(await chain.sealed(template));
  assert.is(outcome.result, 'IMPORTED_BEST');
  return { outcome, nonce: first + BigInt(txs.length) };
}

Calls('a VM told a block\'s state step moves across it keeping its caches: it sees what the block changed (a slot, balances, code replaced, a contract made), as a new VM does, and back', async () => {
  const chain = await open();
  const { reader } = chain;
  const deploy = { data: hexToBytes(initCodeFor(STORE_OR_READ) as `0x${string}`) };
  const { nonce } = await mine(chain, [deploy, deploy]);
  const [store, replaced] = [nonce - 2n, nonce - 1n].map((n) => createContractAddress(new Address(DEV), n).bytes) as [Uint8Array, Uint8Array];
  const later = createContractAddress(new Address(DEV), nonce + 2n).bytes;
  const calls = new CallExecutor(reader, 1);
  const reads = async (executor: CallExecutor, head = reader.head().header) => {
    const run = async (req: { to?: Uint8Array; data?: Uint8Array }) => bytesToHex((await executor.call(head, { from: DEV, ...req }, GAS)).returnValue);
    return [
      await run({ to: store }), await run({ data: balanceOf(NOBODY) }), await run({ data: balanceOf(DEV) }), await run({ to: later }), await run({ to: replaced }),
    ];
  };
  const parent = reader.head().header;
  const before = await reads(calls); // the VM's caches now hold these, at the state before the block
  assert.is(before[0], bytesToHex(word(0)));
  assert.equal([before[3], before[4]], ['0x', bytesToHex(word(0))], 'no code at `later` yet');

  // The block replaces a contract's code (hardhat_setCode), stores into the other, pays NOBODY, and deploys a
  // contract where the VM had read no code.
  const { outcome } = await mine(chain, [{ to: store, data: word(7) }, { to: NOBODY, value: 5n }, deploy], [{ address: replaced, code: hexToBytes(`0x${RETURN_42}`) }]);
  const steps = outcome.headChange?.states ?? [];
  assert.is(steps.length, 1);
  calls.remember(steps);
  const after = await reads(calls);
  assert.equal(after, await reads(new CallExecutor(reader, 1)));
  assert.equal([after[0], BigInt(after[1]!) - BigInt(before[1]!), after[3], after[4]], [bytesToHex(word(7)), 5n, bytesToHex(word(0)), bytesToHex(word(42))]);
  assert.is.not(after[2], before[2], 'the sender\'s balance, read before the block, moved');
  // And back, as after an evm_revert: the values before the block.
  assert.equal(await reads(calls, parent), before);

  // Told a step that claims other values for the slot, a VM on either side of the block answers them when it
  // moves across: the step's values went into its caches, and the slot was not read from the trie again.
  const [step] = steps as [StateStep];
  const storeKey = bytesToHex(store).slice(2);
  const claiming = (side: StateChanges, n: number): StateChanges => ({
    ...side, slots: new Map([...side.slots, [storeKey, new Map([...side.slots.get(storeKey)!].map(([slot]) => [slot, RLP.encode(word(n).subarray(31))]))]]),
  });
  const told = new CallExecutor(reader, 1);
  const slotAt = async (header: typeof parent) => bytesToHex((await told.call(header, { from: DEV, to: store }, GAS)).returnValue);
  assert.is(await slotAt(parent), bytesToHex(word(0)), 'the VM starts before the block');
  told.remember([{ ...step, before: claiming(step.before, 98), after: claiming(step.after, 99) }]);
  assert.is(await slotAt(reader.head().header), bytesToHex(word(99)));
  assert.is(await slotAt(parent), bytesToHex(word(98)));
});

Calls('a deadline stops a call with CallOverBudget and drops its VM; the next call starts clean; calls without one run to their end', async () => {
  const { reader } = await open();
  const head = reader.head().header;
  // A creation that takes 5 wei and then loops until its gas runs out.
  const looping = { from: DEV, data: hexToBytes(LOOP), value: 5n };
  const created = createContractAddress(new Address(DEV), (await reader.stateAt(head.stateRoot).getAccount(new Address(DEV)))!.nonce).bytes;
  const stopped = new CallExecutor(reader, 1);
  const free = new CallExecutor(reader, 1);
  // 10^9 gas would loop for seconds; the deadline is already past, so it stops within a thousand opcodes.
  stopped.deadline = performance.now() - 1;
  const cut = await stopped.call(head, looping, 10n ** 9n).catch((err: unknown) => err);
  assert.instance(cut, CallOverBudget, 'the call with a deadline is stopped');
  // Both at once: the one whose deadline passed stops, the other runs its loop out of gas.
  stopped.deadline = performance.now() - 1;
  const [again, ran] = await Promise.allSettled([stopped.call(head, looping, 10n ** 9n), free.call(head, looping, 3_000_000n)]);
  stopped.deadline = undefined;
  assert.ok(again.status === 'rejected' && again.reason instanceof CallOverBudget, 'stopped again');
  assert.ok(ran.status === 'fulfilled' && ran.value.error === 'out of gas', 'the EVM without a deadline is not stopped');
  // The stopped call's VM held the 5 wei it moved, inside checkpoints it never left: a new VM reads the state as stored.
  const balances = async (calls: CallExecutor) => {
    const out: bigint[] = [];
    for (const a of [created, DEV]) out.push(BigInt(bytesToHex((await calls.call(head, { from: NOBODY, data: balanceOf(a) }, GAS)).returnValue)));
    return out;
  };
  const seen = await balances(stopped);
  assert.is(seen[0], 0n, 'the 5 wei are not at the address the stopped creation made');
  assert.equal(seen, await balances(new CallExecutor(reader, 1)));
});

Calls.run();

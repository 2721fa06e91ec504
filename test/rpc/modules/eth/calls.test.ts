/** eth_estimateGas and eth_call on a real node: the smallest gas that succeeds, intrinsic costs, calls that leave no trace, and the gas limit a call is given. */
import { Interface } from 'ethers';
import { initCodeFor } from '../../../helpers/initCode.ts';
import { callSucceeds, post } from '../../../helpers/rpc.ts';
import { compileFixture } from '../../../helpers/solc.ts';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytecode, DATA, devC, hexQ, iface, storeChain, word } from '../../../helpers/storeChain.ts';

const { url, call, sendAndMine, storeFixture, stop } = storeChain();
const Calls = suite('eth_estimateGas and eth_call');
Calls.after(stop);

Calls('eth_estimateGas of a plain transfer is 21000', async () => {
  assert.is(await call('eth_estimateGas', [{ from: devC, to: '0x4444444444444444444444444444444444444444', value: '0x1' }]), hexQ(21_000));
});

Calls('eth_estimateGas charges calldata bytes and access-list entries (EIP-2028, EIP-2930)', async () => {
  const key = (n: number) => '0x' + n.toString(16).padStart(64, '0');
  const accessList = [{ address: '0x5555555555555555555555555555555555555555', storageKeys: [key(1), key(2)] }];
  const transfer = { from: devC, to: '0x4444444444444444444444444444444444444444', value: '0x1', data: '0x0001' };
  // 21000 + 4 (zero byte) + 16 (non-zero byte), then + 2400 per address + 1900 per storage key
  assert.is(await call('eth_estimateGas', [transfer]), hexQ(21_020));
  assert.is(await call('eth_estimateGas', [{ ...transfer, accessList }]), hexQ(21_020 + 2_400 + 2 * 1_900));
});

Calls('eth_estimateGas returns the smallest gas that succeeds (a call: one less fails on chain)', async () => {
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

Calls('eth_estimateGas of a deployment is the smallest gas that deploys', async () => {
  const data = bytecode + iface.encodeDeploy([1n]).slice(2);
  const estimate = BigInt(await call<string>('eth_estimateGas', [{ from: devC, data }]));
  const short = await sendAndMine({ from: devC, data, gas: hexQ(estimate - 1n) });
  assert.is(short.status, '0x0');
  const exact = await sendAndMine({ from: devC, data, gas: hexQ(estimate) });
  assert.is(exact.status, '0x1');
  assert.match(exact.contractAddress, DATA(20));
  assert.ok((await call<string>('eth_getCode', [exact.contractAddress, 'latest'])).length > 2);
});

/** Deploys `runtime` (hex, without 0x); its address. */
async function deployRuntime(runtime: string): Promise<string> {
  return (await sendAndMine({ from: devC, data: initCodeFor(runtime), gas: hexQ(200_000) })).contractAddress;
}

/**
 * The estimate succeeds as a call's gas limit, and `below` less fails: one less where the gas used is the answer,
 * 1.5 % less where the estimate searched (it stops within 1.5 % of the smallest, as go-ethereum's does).
 */
async function assertSmallest(tx: Record<string, string>, what: string, below: 'one' | 'tolerance'): Promise<bigint> {
  const estimate = BigInt(await call<string>('eth_estimateGas', [tx]));
  assert.ok(await callSucceeds(await url(), tx, estimate), `${what}: the estimate succeeds`);
  const less = below === 'one' ? estimate - 1n : (estimate * 985n) / 1000n;
  assert.not.ok(await callSucceeds(await url(), tx, less), `${what}: ${less} fails`);
  return estimate;
}

Calls('eth_estimateGas where the gas left matters: SSTORE near its floor, GAS, calls and a creation handing on gas', async () => {
  // PUSH1 1, PUSH0, SSTORE: 22,100 gas, far above SSTORE's 2,300-gas floor; the gas used is the answer.
  const fresh = await deployRuntime('60015f5500');
  assert.is(await assertSmallest({ from: devC, to: fresh }, 'a fresh store', 'one'), 21_000n + 3n + 2n + 22_100n);
  // PUSH0, PUSH0, SSTORE of the zero slot 0 again: 2,200 gas, but a store needs more than 2,300 left.
  const noop = await deployRuntime('5f5f5500');
  assert.is(await assertSmallest({ from: devC, to: noop }, 'a store of the same value', 'one'), 21_000n + 2n + 2n + 2_301n);
  // GAS, PUSH3 100000, LT, PUSH1 12, JUMPI, REVERT(0, 0), JUMPDEST, STOP: with more than 100,000 gas left it stops, else it reverts.
  const gate = await deployRuntime('5a620186a010600c575f5ffd5b00');
  const gated = await assertSmallest({ from: devC, to: gate }, 'code that reads its gas', 'tolerance');
  assert.ok(gated > 121_000n, `${gated}`);
  // A call with all its gas, as Solidity's calls make them (PUSH0 ×5, PUSH20 address, GAS, CALL), then revert if
  // it failed: of the fresh store, which needs its 22,105 whatever it gets, and of the gate, which reads its gas.
  const callerOf = (callee: string) => deployRuntime(`5f5f5f5f5f73${callee.slice(2)}5af115602157005b5f5ffd`);
  await assertSmallest({ from: devC, to: await callerOf(fresh) }, 'a call handing on all but a 64th', 'one');
  await assertSmallest({ from: devC, to: await callerOf(gate) }, 'a call handing on all but a 64th to code that reads it', 'tolerance');
  // The fresh store called with a fixed 30,000 (PUSH2 30000 instead of GAS): it needs less, so a limit whose
  // 64th cuts the 30,000 still succeeds.
  const fixed = await deployRuntime(`5f5f5f5f5f73${fresh.slice(2)}617530f115602357005b5f5ffd`);
  await assertSmallest({ from: devC, to: fixed }, 'a call handing on a fixed 30,000', 'one');
  // A value transfer to an account without code, as Solidity's transfer (PUSH0 ×4, PUSH1 1, PUSH20 address, PUSH0,
  // CALL, then revert if it failed): the callee's 2,300 stipend comes back, so the gas used falls short of what the
  // call needed left.
  const payer = await deployRuntime(`5f5f5f5f600173${'44'.repeat(20)}5ff115602257005b5f5ffd`);
  await call('hardhat_setBalance', [payer, '0x10']);
  await assertSmallest({ from: devC, to: payer }, 'a value transfer that gets its stipend back', 'one');
  // A creation of the fresh store (PUSH14 its init code, PUSH0, MSTORE, CREATE(0, 18, 14)), then revert if it
  // failed: the init code gets all but a 64th, and the code's deposit is part of what it needs.
  const init = initCodeFor('60015f5500').slice(2);
  const factory = await deployRuntime(`6d${init}5f52600e60125ff015601c57005b5f5ffd`);
  await assertSmallest({ from: devC, to: factory }, 'a creation', 'one');
});

Calls('eth_estimateGas of Solidity calls: nested calls with a caught revert, a creation that pays and self-destructs', async () => {
  const { bytecode, abi } = compileFixture('Tracing.sol', 'Caller');
  const caller = (await sendAndMine({ from: devC, data: bytecode, gas: hexQ(3_000_000) })).contractAddress;
  const callerIface = new Interface(abi);
  for (const [what, data, value] of [['nested', callerIface.encodeFunctionData('nested', [5n]), '0x0'], ['spawnAndKill', callerIface.encodeFunctionData('spawnAndKill'), '0x1234']]) {
    await assertSmallest({ from: devC, to: caller, data, value }, what, 'one');
  }
});

Calls("eth_call: a call's writes never reach later calls; calls alternating between blocks read each block's state", async () => {
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

Calls('eth_call honours the gas limit it is given', async () => {
  const { store } = await storeFixture();
  const read = { to: store, data: iface.encodeFunctionData('value') };
  const value = await call<string>('eth_call', [read, 'latest']);
  assert.is(await call('eth_call', [{ ...read, gas: hexQ(30_000) }, 'latest']), value, 'enough gas reads the value');
  // 21100 covers the intrinsic cost but not the cold SLOAD: an error, or (as the reference does) empty data, never the value
  const { json } = await post(await url(), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ ...read, gas: hexQ(21_100) }, 'latest'] }));
  assert.ok(json.error ? json.error.code !== -32603 : json.result === '0x', JSON.stringify(json));
});

Calls.run();

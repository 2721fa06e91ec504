/**
 * Opcodes in bursts (src/chain/execution/interpreter/stepBursts.ts): programs run the same, to the gas and the
 * error, with the library's step and with bursts: jumps before and after the jump analysis, a static
 * loop that runs out of gas, invalid opcodes and destinations, a stack underflow, code that ends without
 * STOP, storage, memory, EXP, a log and a precompile call inside bursts, out of gas in a dynamic cost,
 * a revert; and a tracer still sees every step.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { Account, bytesToHex, createZeroAddress, hexToBytes } from '@ethereumjs/util';
import { createChainCommon } from '../../../../src/chain/execution/common.ts';
import { NETWORKS } from '../../../../src/chain/execution/networks.ts';
import { interpreterPrototype } from '../../../../src/chain/execution/interpreter/interpreterClass.ts';
import { runStepsInBursts } from '../../../../src/chain/execution/interpreter/stepBursts.ts';

const Bursts = suite('opcodes in bursts');

const PROGRAMS: Record<string, string> = {
  // 2 + 3 stored in memory and returned.
  arithmetic: '0x600260030160005260206000f3',
  // Counts 10 down with JUMPI: the first jump comes after plain opcodes, before any analysis.
  countdown: '0x600a5b600190038060025700',
  // JUMPDEST PUSH1 0 JUMP forever: out of gas inside one burst.
  loop: '0x5b600056',
  // SSTORE and SLOAD (dynamic gas) between plain opcodes, then the value returned.
  storage: '0x602a60015560015460005260206000f3',
  invalid: '0x6001fe6002',
  undefinedOpcode: '0x60010c',
  badJump: '0x600556',
  underflow: '0x600101',
  // Ends past the last opcode, without STOP.
  noStop: '0x6001600201',
  // KECCAK256 of memory, ISZERO, EQ, shifts, DUP and SWAP.
  mixed: '0x60ff6000526020600020801560011b901460005260206000f3',
  // EXP (dynamic gas, synchronous handler) between plain opcodes: 2^3 returned.
  exp: '0x600360020a60005260206000f3',
  // MSTORE at offset 2^32-1: out of gas in the dynamic gas.
  memoryOutOfGas: '0x600163ffffffff52',
  // STATICCALL of the identity precompile (an awaited handler), then its output returned.
  callPrecompile: '0x602a600052602060206020600060045afa5060206020f3',
  // LOG1, then REVERT with data.
  logAndRevert: '0x602a600052600760206000a160206000fd',
};

interface Outcome { returnValue: string; gasUsed: bigint; error?: string; steps: number }

async function runAll(evm: EVM, traced: boolean): Promise<Record<string, Outcome>> {
  const out: Record<string, Outcome> = {};
  for (const [name, code] of Object.entries(PROGRAMS)) {
    let steps = 0;
    const onStep = (_step: unknown, next?: () => void) => { steps++; next?.(); };
    if (traced) evm.events.on('step', onStep);
    try {
      const r = await evm.runCode({ code: hexToBytes(code as `0x${string}`), gasLimit: 100_000n });
      out[name] = { returnValue: bytesToHex(r.returnValue), gasUsed: r.executionGasUsed, error: r.exceptionError?.error, steps };
    } finally {
      evm.events.off('step', onStep);
    }
  }
  return out;
}

/** An EVM whose code runs at the zero address, an account (SSTORE writes to it). */
async function newEvm(): Promise<EVM> {
  const evm = await createEVM({ common: createChainCommon(NETWORKS.regtest).copy() });
  await evm.stateManager.putAccount(createZeroAddress(), new Account());
  return evm;
}

Bursts('every program ends the same, and a tracer sees every step, with the library step and with bursts', async () => {
  const before = await runAll(await newEvm(), false);
  const tracedBefore = await runAll(await newEvm(), true);
  await runStepsInBursts();
  const after = await runAll(await newEvm(), false);
  const tracedAfter = await runAll(await newEvm(), true);
  assert.equal(after, before);
  assert.equal(tracedAfter, tracedBefore);
  // The programs do what their names say.
  assert.is(before.arithmetic!.returnValue, `0x${'00'.repeat(31)}05`);
  assert.is(before.loop!.error, 'out of gas');
  assert.is(before.loop!.gasUsed, 100_000n);
  assert.is(before.countdown!.error, undefined);
  assert.is(before.storage!.returnValue, `0x${'00'.repeat(31)}2a`);
  assert.is(before.invalid!.error, 'invalid opcode');
  assert.is(before.undefinedOpcode!.error, 'invalid opcode');
  assert.match(before.badJump!.error!, /^invalid JUMP/);
  assert.is(before.underflow!.error, 'stack underflow');
  assert.is(before.noStop!.error, undefined);
  assert.is(before.mixed!.error, undefined);
  assert.is(before.exp!.returnValue, `0x${'00'.repeat(31)}08`);
  assert.is(before.memoryOutOfGas!.error, 'out of gas');
  assert.is(before.callPrecompile!.returnValue, `0x${'00'.repeat(31)}2a`);
  assert.is(before.logAndRevert!.error, 'revert');
  assert.is(before.logAndRevert!.returnValue, `0x${'00'.repeat(31)}2a`);
  assert.ok(tracedBefore.countdown!.steps > 40);
});

Bursts('the library\'s loop awaits a step per burst, not per opcode, unless traced', async () => {
  await runStepsInBursts();
  const proto = (await interpreterPrototype()) as { runStep: (...args: unknown[]) => unknown };
  const burst = proto.runStep;
  let awaited = 0;
  proto.runStep = function (this: unknown, ...args: unknown[]) { awaited++; return burst.apply(this, args); };
  try {
    const plain = await runAll(await newEvm(), false);
    const plainAwaits = awaited;
    awaited = 0;
    const traced = await runAll(await newEvm(), true);
    const steps = Object.values(traced).reduce((n, o) => n + o.steps, 0);
    assert.is(awaited, steps);
    assert.ok(plainAwaits < steps / 3, `${plainAwaits} awaited steps of ${steps}`);
    assert.equal(Object.values(plain).map((o) => o.gasUsed), Object.values(traced).map((o) => o.gasUsed));
  } finally {
    proto.runStep = burst;
  }
});

Bursts.run();

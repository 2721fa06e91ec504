/**
 * Kept jump analyses (src/chain/execution/jumpAnalysis.ts): a code object is analysed once per opcode
 * table, another code object (even with the same bytes) gets its own analysis, asking twice wraps the
 * interpreter once, and programs with valid and invalid jumps run as before, gas included.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEVM } from '@ethereumjs/evm';
import { hexToBytes } from '@ethereumjs/util';
import { interpreterPrototype } from '../../../src/chain/execution/interpreterClass.ts';
import { keepJumpAnalyses } from '../../../src/chain/execution/jumpAnalysis.ts';

const Kept = suite('kept jump analyses');

interface Analysing { _getValidJumpDestinations(code: Uint8Array): unknown }

// Counts 3 down with JUMPI: the jump lands on the JUMPDEST at 2.
const COUNTDOWN = '0x60035b600190038060025700';
// Jumps to 5, which is inside a PUSH's data: an invalid destination.
const BAD_JUMP = '0x6005566000';

async function run(code: Uint8Array) {
  const evm = await createEVM();
  const { executionGasUsed, exceptionError } = await evm.runCode({ code, gasLimit: 100_000n });
  return { gas: executionGasUsed, error: exceptionError?.error };
}

Kept('programs run the same before and after the analyses are kept', async () => {
  const before = [await run(hexToBytes(COUNTDOWN)), await run(hexToBytes(BAD_JUMP))];
  await keepJumpAnalyses();
  const code = hexToBytes(COUNTDOWN);
  const after = [await run(code), await run(code), await run(hexToBytes(BAD_JUMP))];
  assert.equal(after, [before[0], before[0], before[1]]);
  assert.is(before[0]!.error, undefined);
  assert.match(before[1]!.error ?? '', /^invalid JUMP/);
});

Kept('one analysis per code object, and the interpreter is wrapped once', async () => {
  await keepJumpAnalyses();
  const proto = (await interpreterPrototype()) as Analysing;
  const wrapped = proto._getValidJumpDestinations;
  await keepJumpAnalyses();
  assert.is(proto._getValidJumpDestinations, wrapped);

  // An interpreter is the receiver (its EVM's opcode table keys the kept analyses, its Common names the EIPs).
  const evm = await createEVM();
  const interpreter = Object.assign(Object.create(proto) as Analysing, { _evm: evm, common: evm.common });
  const code = hexToBytes(COUNTDOWN);
  const first = interpreter._getValidJumpDestinations(code);
  assert.is(interpreter._getValidJumpDestinations(code), first);
  assert.is.not(interpreter._getValidJumpDestinations(hexToBytes(COUNTDOWN)), first);
});

Kept.run();

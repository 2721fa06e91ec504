/**
 * For the tests of the interpreter changes (src/chain/execution/interpreter/, docs/rpc-workers.md "Calls"):
 * the same programs run in an EVM made before a change, in one made after it, and in one that also runs
 * opcodes in bursts, must end the same (return value, gas, error).
 */
import * as assert from 'uvu/assert';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { createChainCommon } from '../../src/chain/execution/common.ts';
import { NETWORKS } from '../../src/chain/execution/networks.ts';
import { runStepsInBursts } from '../../src/chain/execution/interpreter/stepBursts.ts';

export interface Outcome { returnValue: string; gasUsed: bigint; error?: string }

export const newEvm = () => createEVM({ common: createChainCommon(NETWORKS.regtest).copy() });

/** Runs each program (its code in hex) with `gasLimit` and tells how each ended. */
export async function runPrograms(evm: EVM, programs: Record<string, string>, gasLimit: bigint): Promise<Record<string, Outcome>> {
  const out: Record<string, Outcome> = {};
  for (const [name, code] of Object.entries(programs)) {
    const r = await evm.runCode({ code: hexToBytes(code as `0x${string}`), gasLimit });
    out[name] = { returnValue: bytesToHex(r.returnValue), gasUsed: r.executionGasUsed, error: r.exceptionError?.error };
  }
  return out;
}

/** Runs `runAll` before `swap`, after it and with bursts too; asserts the three agree and returns the EVMs before and after, and the outcome. */
export async function sameAfterSwap<T>(runAll: (evm: EVM) => Promise<T>, swap: () => void): Promise<{ library: EVM; swapped: EVM; before: T }> {
  const library = await newEvm();
  const before = await runAll(library);
  swap();
  const swapped = await newEvm();
  const after = await runAll(swapped);
  await runStepsInBursts();
  const bursts = await runAll(await newEvm());
  assert.equal(after, before);
  assert.equal(bursts, before);
  return { library, swapped, before };
}

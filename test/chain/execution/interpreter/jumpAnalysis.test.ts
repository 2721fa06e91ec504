/**
 * Kept jump analyses (src/chain/execution/interpreter/jumpAnalysis.ts): code is analysed once per code
 * object and, for init code that comes in a new array with every deployment, once per code bytes; codes
 * that differ only where a jump lands are analysed apart and end as the library ends them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hexToBytes } from '@ethereumjs/util';
import { interpreterPrototype } from '../../../../src/chain/execution/interpreter/interpreterClass.ts';
import { keepJumpAnalyses } from '../../../../src/chain/execution/interpreter/jumpAnalysis.ts';
import { newEvm } from '../../../helpers/opcodeSwaps.ts';

const Analyses = suite('kept jump analyses');

// PUSH1 4 JUMP, then at 3 STOP or INVALID, at 4 JUMPDEST or STOP, then PUSH1 42 PUSH1 0 MSTORE, return 32 bytes.
const tail = '602a60005260206000f3';
const JUMPS = hexToBytes(`0x60045600 5b${tail}`.replace(' ', '') as `0x${string}`);
const LANDS_ON_STOP = hexToBytes(`0x60045600 00${tail}`.replace(' ', '') as `0x${string}`);

Analyses('the same code in new arrays is analysed once; other bytes are analysed apart and end as before', async () => {
  const proto = (await interpreterPrototype()) as { _getValidJumpDestinations(code: Uint8Array): unknown };
  const library = proto._getValidJumpDestinations;
  let analysed = 0;
  proto._getValidJumpDestinations = function (code: Uint8Array) {
    analysed++;
    return library.call(this, code);
  };
  const run = async (code: Uint8Array) => {
    const r = await (await newEvm()).runCode({ code, gasLimit: 100_000n });
    return { returned: r.returnValue.at(-1), error: r.exceptionError?.error };
  };
  const before = { jumps: await run(JUMPS), stop: await run(LANDS_ON_STOP) };
  assert.equal(before.jumps, { returned: 42, error: undefined });
  assert.match(before.stop.error ?? '', /^invalid JUMP/);
  assert.is(analysed, 2);

  await keepJumpAnalyses();
  analysed = 0;
  const evm = await newEvm();
  const runHere = async (code: Uint8Array) => {
    const r = await evm.runCode({ code, gasLimit: 100_000n });
    return { returned: r.returnValue.at(-1), error: r.exceptionError?.error };
  };
  assert.equal(await runHere(JUMPS), before.jumps);
  assert.equal(await runHere(JUMPS), before.jumps);
  assert.equal(await runHere(JUMPS.slice()), before.jumps, 'a copy of the code, in an array of its own');
  assert.is(analysed, 1);
  assert.equal(await runHere(LANDS_ON_STOP), before.stop);
  assert.equal(await runHere(LANDS_ON_STOP.slice()), before.stop);
  assert.is(analysed, 2);
});

Analyses.run();

/**
 * The interpreter changes every EVM of the node runs with, block execution and calls alike
 * (docs/performance.md "The interpreter"): opcodes in bursts, kept jump analyses, words loaded and
 * stored without hex text, memory gas answered at once. Each keeps the library's results, gas and errors.
 * And the report of the smallest gas limit an execution needs, for estimates (gasWatch.ts).
 */
import { reportGasNeeds } from './gasWatch.ts';
import { keepJumpAnalyses } from './jumpAnalysis.ts';
import { chargeMemoryAtOnce } from './memoryGas.ts';
import { runStepsInBursts } from './stepBursts.ts';
import { loadWordsWithoutHex } from './wordLoads.ts';
import { storeWordsUnpadded } from './wordStores.ts';

let applied: Promise<void> | undefined;

/** Applies them to every EVM this thread builds afterwards (once per thread: later calls wait for the first). */
export function speedUpInterpreter(): Promise<void> {
  applied ??= (async () => {
    // Before the gas watch: its note on SSTORE's gas wraps the node's own handler (swaps of a handler stack).
    storeWordsUnpadded();
    loadWordsWithoutHex();
    chargeMemoryAtOnce();
    reportGasNeeds();
    await Promise.all([keepJumpAnalyses(), runStepsInBursts()]);
  })();
  return applied;
}

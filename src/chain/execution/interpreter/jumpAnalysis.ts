/**
 * Contract code's jump analysis, kept per code (docs/rpc-workers.md, "Calls"). @ethereumjs/evm
 * analyses the code of every call it runs (valid JUMPDESTs, PUSH values, the opcode of each byte),
 * which for a token's balanceOf costs a sixth of the worker's time. Code read from the trie is the very
 * object the trie node cache holds, so the analysis is kept by code object (and opcode table: the
 * analysis holds the table's entries) and is dropped with it.
 */
import { interpreterPrototype } from './interpreterClass.ts';

interface InterpreterMethods {
  _evm: { _opcodeMap: readonly object[] };
  _getValidJumpDestinations(code: Uint8Array): unknown;
}

/** Makes every Interpreter of this thread keep its jump analyses. */
export async function keepJumpAnalyses(): Promise<void> {
  const proto = (await interpreterPrototype()) as InterpreterMethods;
  const analyse = proto._getValidJumpDestinations;
  const kept = new WeakMap<object, WeakMap<Uint8Array, unknown>>();
  proto._getValidJumpDestinations = function (this: InterpreterMethods, code: Uint8Array) {
    let byCode = kept.get(this._evm._opcodeMap);
    if (!byCode) kept.set(this._evm._opcodeMap, (byCode = new WeakMap()));
    let analysis = byCode.get(code);
    if (!analysis) byCode.set(code, (analysis = analyse.call(this, code)));
    return analysis;
  };
}

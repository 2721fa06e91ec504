/**
 * Contract code's jump analysis, kept per code (docs/rpc-workers.md, "Calls"). @ethereumjs/evm
 * analyses the code of every call it runs (valid JUMPDESTs, PUSH values, the opcode of each byte),
 * which for a token's balanceOf costs a sixth of the worker's time. Code read from the trie is the very
 * object the trie node cache holds, so the analysis is kept by code object (and opcode table: the
 * analysis holds the table's entries) and is dropped with it. Init code comes in a new array with every
 * deployment, and a test suite deploys the same contracts again and again: the last few analyses are
 * also kept by the code's bytes.
 */
import { Lru } from '../../storage/lru.ts';
import { interpreterPrototype } from './interpreterClass.ts';

interface InterpreterMethods {
  _evm: { _opcodeMap: readonly object[] };
  _getValidJumpDestinations(code: Uint8Array): unknown;
}

/** Analyses kept by code bytes (latin1 text), per opcode table: init code at most this many bytes, the last this many codes. */
const BY_BYTES_MAX_CODE = 49_152;
const BY_BYTES_KEPT = 16;

interface Kept { readonly byCode: WeakMap<Uint8Array, unknown>; readonly byBytes: Lru<string, unknown> }

/** Makes every Interpreter of this thread keep its jump analyses. */
export async function keepJumpAnalyses(): Promise<void> {
  const proto = (await interpreterPrototype()) as InterpreterMethods;
  const analyse = proto._getValidJumpDestinations;
  const kept = new WeakMap<object, Kept>();
  proto._getValidJumpDestinations = function (this: InterpreterMethods, code: Uint8Array) {
    let table = kept.get(this._evm._opcodeMap);
    if (!table) kept.set(this._evm._opcodeMap, (table = { byCode: new WeakMap(), byBytes: new Lru(BY_BYTES_KEPT) }));
    let analysis = table.byCode.get(code);
    if (analysis) return analysis;
    const bytes = code.length <= BY_BYTES_MAX_CODE ? Buffer.from(code.buffer, code.byteOffset, code.length).toString('latin1') : undefined;
    analysis = bytes === undefined ? undefined : table.byBytes.get(bytes);
    if (!analysis) {
      analysis = analyse.call(this, code);
      if (bytes !== undefined) table.byBytes.set(bytes, analysis);
    }
    table.byCode.set(code, analysis);
    return analysis;
  };
}

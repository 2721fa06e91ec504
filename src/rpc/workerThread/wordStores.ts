/**
 * MSTORE without the library's byte padding (docs/rpc-workers.md, "Calls"). @ethereumjs/evm's MSTORE
 * turns the word into its shortest bytes and pads them to 32 by spreading both into a new array,
 * which for a small word (a free-memory pointer, an address, a balance) cost a token's balanceOf
 * about a twentieth of the worker's time. Here the word is written big-endian into one scratch word,
 * which the memory copies: the same 32 bytes at the same offset, the same memory growth and errors.
 * The gas is the library's (MSTORE's own entry keeps its gas handler).
 */
import { EVM } from '@ethereumjs/evm';

const MSTORE = 0x52;

interface RunState {
  readonly stack: { popN(n: number): bigint[] };
  readonly memory: { write(offset: number, size: number, value: Uint8Array): void };
}
interface OpcodeEntry { readonly opcodeInfo: { readonly name: string }; readonly opHandler: (runState: RunState) => void }
interface Opcodes {
  _opcodeMap: OpcodeEntry[];
  _handlers: Map<number, OpcodeEntry['opHandler']>;
  readonly _customOpcodes?: readonly unknown[];
  getActiveOpcodes(): unknown;
}

const word = new Uint8Array(32);
const view = new DataView(word.buffer);
const U64 = 64n;

/** MSTORE: a stack word is below 2^256, so its four 64-bit limbs are all it holds. */
function mstore(runState: RunState): void {
  const [offset, value] = runState.stack.popN(2) as [bigint, bigint];
  view.setBigUint64(0, value >> 192n);
  view.setBigUint64(8, BigInt.asUintN(64, value >> 128n));
  view.setBigUint64(16, BigInt.asUintN(64, value >> U64));
  view.setBigUint64(24, BigInt.asUintN(64, value));
  runState.memory.write(Number(offset), 32, word);
}

let patched = false;

/** Makes every EVM this thread builds afterwards store memory words so (once: later calls change nothing). */
export function storeWordsUnpadded(): void {
  if (patched) return;
  patched = true;
  const proto = EVM.prototype as unknown as Opcodes;
  const active = proto.getActiveOpcodes;
  proto.getActiveOpcodes = function (this: Opcodes) {
    const opcodes = active.call(this);
    const entry = this._opcodeMap[MSTORE];
    // An EVM given its own opcodes keeps them.
    if (this._customOpcodes === undefined && entry?.opcodeInfo.name === 'MSTORE') {
      this._opcodeMap[MSTORE] = { ...entry, opHandler: mstore };
      this._handlers.set(MSTORE, mstore);
    }
    return opcodes;
  };
}

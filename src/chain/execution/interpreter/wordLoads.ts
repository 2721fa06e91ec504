/**
 * MLOAD, CALLDATALOAD, SLOAD and KECCAK256 without the library's hex text (docs/rpc-workers.md, "Calls"):
 * @ethereumjs/evm turns each loaded word (and each hash) into a bigint through hex text, and SLOAD's key
 * into bytes through hex text and a padding copy, twice (its gas handler, then its handler): about a
 * twentieth of a worker's time for a token's balanceOf. Here the words go through 64-bit limbs (words.ts),
 * and SLOAD's key is made once for its gas handler and its handler. Each does what the library's does
 * otherwise: the same stack, memory growth, storage reads, warm slots, hashes, gas and errors. SLOAD's gas
 * is the library's own under stateless (Verkle, binary-tree) access rules, KECCAK256 the library's own
 * without the chain's hash function (src/chain/execution/common.ts gives it one).
 */
import { once, swapGasHandler, swapHandler, type GasHandler, type OpHandler } from './opcodeSwaps.ts';
import { wordBytes, wordOf } from './words.ts';

interface Common {
  isActivatedEIP(eip: number): boolean;
  param(name: string): bigint;
  readonly customCrypto: { readonly keccak256?: (data: Uint8Array) => Uint8Array };
}
/** What a storage slot's EIP-2929 access reads of the interpreter. */
export interface SlotAccess {
  getAddress(): { readonly bytes: Uint8Array };
  readonly journal: { isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean; addWarmedStorage(address: Uint8Array, slot: Uint8Array): void };
}
interface RunState {
  readonly stack: { pop(): bigint; popN(n: number): bigint[]; push(value: bigint): void; peek(): bigint[] };
  readonly memory: { read(offset: number, size: number, avoidCopy?: boolean): Uint8Array };
  readonly interpreter: SlotAccess & {
    getCallDataSize(): bigint;
    getCallData(): Uint8Array;
    storageLoad(key: Uint8Array): Promise<Uint8Array>;
  };
}

/** MLOAD. */
function mload(runState: RunState): void {
  const pos = runState.stack.pop();
  runState.stack.push(wordOf(runState.memory.read(Number(pos), 32, true)));
}

/** CALLDATALOAD: the 32 bytes at the offset, zeros past the end of the data. */
function calldataload(runState: RunState): void {
  const pos = runState.stack.pop();
  if (pos > runState.interpreter.getCallDataSize()) return runState.stack.push(0n);
  const i = Number(pos);
  runState.stack.push(wordOf(runState.interpreter.getCallData().subarray(i, i + 32), true));
}

/** KECCAK256 (a copy of the memory hashed, as the library hashes it). */
function keccak(library: OpHandler): OpHandler {
  const own = (runState: RunState, common: Common): void => {
    const hash = common.customCrypto.keccak256;
    if (hash === undefined) return (library as typeof own)(runState, common);
    const [offset, length] = runState.stack.popN(2) as [bigint, bigint];
    const data = length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length));
    runState.stack.push(wordOf(hash(data)));
  };
  return own as OpHandler;
}

/** The slot a storage opcode's gas handler (SLOAD's, SSTORE's) made, for the opcode's handler (the next thing to run); taken once. */
let made: { readonly key: bigint; readonly bytes: Uint8Array } | undefined;

/** `key`'s 32 bytes, made by a gas handler and kept for its opcode's handler. */
export function makeSlot(key: bigint): Uint8Array {
  const bytes = wordBytes(key);
  made = { key, bytes };
  return bytes;
}

/** The slot's bytes the gas handler made for `key`, or new ones. */
export function slotBytes(key: bigint): Uint8Array {
  const kept = made;
  made = undefined;
  return kept !== undefined && kept.key === key ? kept.bytes : wordBytes(key);
}

/** EIP-2929's access to a slot of the running contract's storage: true when it was cold (it is warm now). */
export function warmsSlot(interpreter: SlotAccess, slot: Uint8Array): boolean {
  const address = interpreter.getAddress().bytes;
  if (interpreter.journal.isWarmedStorage(address, slot)) return false;
  interpreter.journal.addWarmedStorage(address, slot);
  return true;
}

/** SLOAD. */
async function sload(runState: RunState): Promise<void> {
  const value = await runState.interpreter.storageLoad(slotBytes(runState.stack.pop()));
  runState.stack.push(value.length ? wordOf(value) : 0n);
}

/** SLOAD's gas: EIP-2929's warm or cold read (the library's accessStorageEIP2929 without stateless rules). */
function sloadGas(library: GasHandler): GasHandler {
  const own = (runState: RunState, gas: bigint, common: Common): Promise<bigint> | bigint => {
    if (common.isActivatedEIP(6800) || common.isActivatedEIP(7864)) return (library as typeof own)(runState, gas, common);
    const slot = makeSlot(runState.stack.peek()[0]!);
    if (!common.isActivatedEIP(2929)) return gas;
    return gas + common.param(warmsSlot(runState.interpreter, slot) ? 'coldsloadGas' : 'warmstoragereadGas');
  };
  return own as GasHandler;
}

/** Makes every EVM this thread builds afterwards load words so (once: later calls change nothing). */
export const loadWordsWithoutHex = once(() => {
  swapHandler(0x51, 'MLOAD', () => mload as OpHandler);
  swapHandler(0x35, 'CALLDATALOAD', () => calldataload as OpHandler);
  swapHandler(0x54, 'SLOAD', () => sload as OpHandler);
  swapGasHandler(0x54, 'SLOAD', sloadGas);
  swapHandler(0x20, 'KECCAK256', keccak);
});

/**
 * MSTORE, SSTORE and LOG0–LOG4 without the library's hex text and byte padding (docs/rpc-workers.md,
 * "Calls"). @ethereumjs/evm turns a word into bytes through hex text (`bigIntToBytes`) and pads them to 32
 * by spreading both into a new array, about 2 µs a word: MSTORE's value (for a small word, a free-memory
 * pointer, an address, a balance, that cost a token's balanceOf about a twentieth of the worker's time),
 * SSTORE's key and value, each topic of a log. Here a word is written big-endian through 64-bit limbs
 * (words.ts): the same bytes at the same offset, the same slot and stored value (its shortest bytes, none
 * for zero), the same topics, the same memory growth and errors. Their gas is the library's (each entry
 * keeps its gas handler), except SSTORE's: the library pads the slot, its current, original and new value to 32
 * bytes by spreading them into new arrays (about 1.4 µs each), so SSTORE's gas is charged here too, by the same
 * rules on the numbers themselves, its slot made once for its gas handler and its handler as SLOAD's is
 * (wordLoads.ts). Both SSTORE handlers are the library's own where EIP-8037 meters state gas in
 * its handler or other rules than EIP-2200's with EIP-2929's warm slots price a store.
 */
import { EVMError } from '@ethereumjs/evm';
import { uintBytes } from '../../codec/bytes.ts';
import { once, swapGasHandler, swapHandler, type GasHandler, type OpHandler } from './opcodeSwaps.ts';
import { makeSlot, slotBytes, warmsSlot, type SlotAccess } from './wordLoads.ts';
import { wordBytes, wordOf, writeWord } from './words.ts';

interface Common { isActivatedEIP(eip: number): boolean; param(name: string): bigint }
interface RunState {
  readonly opCode: number;
  readonly stack: { popN(n: number): bigint[]; peek(n: number): bigint[] };
  readonly memory: { read(offset: number, size: number): Uint8Array; write(offset: number, size: number, value: Uint8Array): void };
  readonly interpreter: SlotAccess & {
    storageStore(key: Uint8Array, value: Uint8Array): Promise<void>;
    storageLoad(key: Uint8Array, original: boolean, trackBAL: boolean): Promise<Uint8Array>;
    log(data: Uint8Array, topicsCount: number, topics: Uint8Array[]): void;
    isStatic(): boolean;
    getGasLeft(): bigint;
    refundGas(amount: bigint): void;
    subRefund(amount: bigint): void;
  };
}

const word = new Uint8Array(32);
const view = new DataView(word.buffer);

/** MSTORE. */
function mstore(runState: RunState): void {
  const [offset, value] = runState.stack.popN(2) as [bigint, bigint];
  writeWord(view, value);
  runState.memory.write(Number(offset), 32, word);
}

/** SSTORE. */
function sstore(library: OpHandler): OpHandler {
  const own = (runState: RunState, common: Common): Promise<void> => {
    if (common.isActivatedEIP(8037)) return (library as typeof own)(runState, common);
    const [key, value] = runState.stack.popN(2) as [bigint, bigint];
    return runState.interpreter.storageStore(slotBytes(key), uintBytes(value));
  };
  return own as OpHandler;
}

/** Rules that price a store otherwise (state gas, stateless access, block-level access lists, Amsterdam's schedule): the library's gas. */
const OTHER_STORE_RULES = [8037, 8038, 6800, 7864, 7928];

/**
 * SSTORE's gas as the library charges it under EIP-2200 with EIP-2929's prices (its `updateSstoreGasEIP2200`,
 * `adjustSstoreGasEIP2929` and `accessStorageEIP2929`): the static-call and 2,300-gas sentry errors, the net
 * cost of the change, the refunds in the same order, and a cold slot's access. A slot whose value differs from
 * its original was written in this transaction, so it is warm (warm slots revert with the writes): the library's
 * prices for a cold no-op and cold resets are never reached, and the EIP's warm prices are charged as it states them.
 */
function sstoreGas(library: GasHandler): GasHandler {
  const own = async (runState: RunState, gas: bigint, common: Common): Promise<bigint> => {
    if (!common.isActivatedEIP(2929) || OTHER_STORE_RULES.some((eip) => common.isActivatedEIP(eip))) {
      return (library as typeof own)(runState, gas, common);
    }
    const interpreter = runState.interpreter;
    if (interpreter.isStatic()) throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE);
    const [key, value] = runState.stack.peek(2) as [bigint, bigint];
    const slot = makeSlot(key);
    const current = wordOf(await interpreter.storageLoad(slot, false, false));
    const original = wordOf(await interpreter.storageLoad(slot, true, false));
    if (interpreter.getGasLeft() <= common.param('sstoreSentryEIP2200Gas')) throw new EVMError(EVMError.errorMessages.OUT_OF_GAS);
    const warmRead = common.param('warmstoragereadGas');
    let cost: bigint;
    if (current === value) {
      cost = warmRead;
    } else if (original === current) {
      if (original !== 0n && value === 0n) interpreter.refundGas(common.param('sstoreClearRefundEIP2200Gas'));
      cost = common.param(original === 0n ? 'sstoreInitEIP2200Gas' : 'sstoreCleanEIP2200Gas');
    } else {
      if (original !== 0n && current === 0n) interpreter.subRefund(common.param('sstoreClearRefundEIP2200Gas'));
      else if (original !== 0n && value === 0n) interpreter.refundGas(common.param('sstoreClearRefundEIP2200Gas'));
      if (original === value && original === 0n) interpreter.refundGas(common.param('sstoreInitEIP2200Gas') - warmRead);
      else if (original === value) interpreter.refundGas(common.param('sstoreResetGas') - common.param('coldsloadGas') - warmRead);
      cost = common.param('sstoreDirtyEIP2200Gas');
    }
    return gas + cost + (warmsSlot(interpreter, slot) ? common.param('coldsloadGas') : 0n);
  };
  return own as GasHandler;
}

/** LOG0 to LOG4: the data from memory, each topic as 32 bytes. */
function log(runState: RunState): void {
  const [offset, length] = runState.stack.popN(2) as [bigint, bigint];
  const count = runState.opCode - 0xa0;
  const topics = runState.stack.popN(count).map(wordBytes);
  const data = length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length));
  runState.interpreter.log(data, count, topics);
}

/** Makes every EVM this thread builds afterwards store words so (once: later calls change nothing). */
export const storeWordsUnpadded = once(() => {
  swapHandler(0x52, 'MSTORE', () => mstore as OpHandler);
  swapHandler(0x55, 'SSTORE', sstore);
  swapGasHandler(0x55, 'SSTORE', sstoreGas);
  for (let op = 0xa0; op <= 0xa4; op++) swapHandler(op, 'LOG', () => log as OpHandler);
});

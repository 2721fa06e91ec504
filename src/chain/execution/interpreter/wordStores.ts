/**
 * MSTORE, SSTORE and LOG0–LOG4 without the library's hex text and byte padding (docs/rpc-workers.md,
 * "Calls"). @ethereumjs/evm turns a word into bytes through hex text (`bigIntToBytes`) and pads them to 32
 * by spreading both into a new array, about 2 µs a word: MSTORE's value (for a small word, a free-memory
 * pointer, an address, a balance, that cost a token's balanceOf about a twentieth of the worker's time),
 * SSTORE's key and value, each topic of a log. Here a word is written big-endian through 64-bit limbs
 * (words.ts): the same bytes at the same offset, the same slot and stored value (its shortest bytes, none
 * for zero), the same topics, the same memory growth and errors. Their gas is the library's (each entry
 * keeps its gas handler); SSTORE is the library's own where EIP-8037 meters state gas in its handler.
 */
import { uintBytes } from '../../codec/bytes.ts';
import { swapHandler, type OpHandler } from './opcodeSwaps.ts';
import { wordBytes, writeWord } from './words.ts';

interface Common { isActivatedEIP(eip: number): boolean }
interface RunState {
  readonly opCode: number;
  readonly stack: { popN(n: number): bigint[] };
  readonly memory: { read(offset: number, size: number): Uint8Array; write(offset: number, size: number, value: Uint8Array): void };
  readonly interpreter: {
    storageStore(key: Uint8Array, value: Uint8Array): Promise<void>;
    log(data: Uint8Array, topicsCount: number, topics: Uint8Array[]): void;
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
    return runState.interpreter.storageStore(wordBytes(key), uintBytes(value));
  };
  return own as OpHandler;
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
export function storeWordsUnpadded(): void {
  swapHandler(0x52, 'MSTORE', () => mstore as OpHandler);
  swapHandler(0x55, 'SSTORE', sstore);
  for (let op = 0xa0; op <= 0xa4; op++) swapHandler(op, 'LOG', () => log as OpHandler);
}

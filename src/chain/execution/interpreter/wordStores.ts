/**
 * MSTORE without the library's byte padding (docs/rpc-workers.md, "Calls"). @ethereumjs/evm's MSTORE
 * turns the word into its shortest bytes and pads them to 32 by spreading both into a new array,
 * which for a small word (a free-memory pointer, an address, a balance) cost a token's balanceOf
 * about a twentieth of the worker's time. Here the word is written big-endian into one scratch word,
 * which the memory copies: the same 32 bytes at the same offset, the same memory growth and errors.
 * The gas is the library's (MSTORE's own entry keeps its gas handler).
 */
import { swapHandler, type OpHandler } from './opcodeSwaps.ts';
import { writeWord } from './words.ts';

interface RunState {
  readonly stack: { popN(n: number): bigint[] };
  readonly memory: { write(offset: number, size: number, value: Uint8Array): void };
}

const word = new Uint8Array(32);
const view = new DataView(word.buffer);

/** MSTORE. */
function mstore(runState: RunState): void {
  const [offset, value] = runState.stack.popN(2) as [bigint, bigint];
  writeWord(view, value);
  runState.memory.write(Number(offset), 32, word);
}

/** Makes every EVM this thread builds afterwards store memory words so (once: later calls change nothing). */
export function storeWordsUnpadded(): void {
  swapHandler(0x52, 'MSTORE', () => mstore as OpHandler);
}

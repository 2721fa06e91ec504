/**
 * The gas of MLOAD, MSTORE, KECCAK256 and RETURN answered at once (docs/rpc-workers.md, "Calls"):
 * @ethereumjs/evm's gas handlers are async functions, so each of them cost a burst an await (a token's
 * balanceOf runs about ten of them). These compute what the library's do (the memory expansion of
 * its `subMemUsage`, KECCAK256's word cost) and return it synchronously; stack underflow throws as there.
 */
import { once, swapGasHandler, type GasHandler } from './opcodeSwaps.ts';

interface Common { param(name: string): bigint }
interface RunState {
  readonly stack: { peek(num?: number): bigint[] };
  memoryWordCount: bigint;
  highestMemCost: bigint;
}

const WORD = 32n;
const divCeil = (a: bigint, b: bigint): bigint => (a % b === 0n ? a / b : a / b + 1n);

/** The gas of growing the memory to hold `length` bytes from `offset`: the library's subMemUsage, step for step. */
function memoryGrowth(runState: RunState, offset: bigint, length: bigint, common: Common): bigint {
  if (length === 0n) return 0n;
  const words = divCeil(offset + length, WORD);
  if (words <= runState.memoryWordCount) return 0n;
  let cost = words * common.param('memoryGas') + (words * words) / common.param('quadCoefficientDivGas');
  if (cost > runState.highestMemCost) {
    const highest = runState.highestMemCost;
    runState.highestMemCost = cost;
    cost -= highest;
  }
  runState.memoryWordCount = words;
  return cost;
}

/** A word at the offset on top of the stack (MLOAD, MSTORE). */
function wordAtTop(runState: RunState, gas: bigint, common: Common): bigint {
  return gas + memoryGrowth(runState, runState.stack.peek()[0]!, WORD, common);
}

/** The range given by the two words on top of the stack (RETURN). */
function rangeAtTop(runState: RunState, gas: bigint, common: Common): bigint {
  const [offset, length] = runState.stack.peek(2) as [bigint, bigint];
  return gas + memoryGrowth(runState, offset, length, common);
}

/** KECCAK256: the range, and a word cost for each 32 bytes hashed. */
function keccakGas(runState: RunState, gas: bigint, common: Common): bigint {
  const [offset, length] = runState.stack.peek(2) as [bigint, bigint];
  return gas + memoryGrowth(runState, offset, length, common) + common.param('keccak256WordGas') * divCeil(length, WORD);
}

/** Makes every EVM this thread builds afterwards answer these gas costs so (once: later calls change nothing). */
export const chargeMemoryAtOnce = once(() => {
  swapGasHandler(0x51, 'MLOAD', () => wordAtTop as GasHandler);
  swapGasHandler(0x52, 'MSTORE', () => wordAtTop as GasHandler);
  swapGasHandler(0x20, 'KECCAK256', () => keccakGas as GasHandler);
  swapGasHandler(0xf3, 'RETURN', () => rangeAtTop as GasHandler);
});

/**
 * Whether an execution's gas used depends on its gas limit (docs/rpc-workers.md, "Estimates"). Each
 * opcode charges the same gas whatever the gas left, except where the code can see the gas left: `GAS`,
 * the calls and creations (they hand on all but a 64th of it), and `SSTORE`, which fails with 2,300 gas
 * left or less (EIP-2200). An execution that ran none of the first, and whose every `SSTORE` would still
 * have had more than 2,300 left with a limit of just the gas it used, succeeds with that limit too.
 */
import { swapGasHandler, swapHandler, type GasHandler, type OpHandler } from './opcodeSwaps.ts';

interface RunState { readonly interpreter: { readonly _evm: object; getGasLeft(): bigint } }

/** What a watched execution did: whether it read or handed on its gas, and the least gas it had left at an `SSTORE`. */
export interface GasWatch {
  gasSeen: boolean;
  leastLeftAtSstore: bigint | undefined;
}

/** The watch of each EVM whose execution is watched. */
const watches = new WeakMap<object, GasWatch>();

/** Starts watching the next execution of `evm` (one at a time per EVM); `unwatch` ends it. */
export function watch(evm: object): GasWatch {
  const w: GasWatch = { gasSeen: false, leastLeftAtSstore: undefined };
  watches.set(evm, w);
  return w;
}

export const unwatch = (evm: object): void => void watches.delete(evm);

/** The `SSTORE` sentry (EIP-2200): a store needs more than this much gas left. */
const SSTORE_SENTRY = 2300n;

/**
 * Whether a limit of `gasUsed` (execution gas, of `limit` given) would have run the watched execution
 * the same way: it saw no gas, and every `SSTORE`, with `limit - gasUsed` less gas left, passes the sentry.
 */
export function suffices(w: GasWatch, limit: bigint, gasUsed: bigint): boolean {
  return !w.gasSeen && (w.leastLeftAtSstore === undefined || w.leastLeftAtSstore - (limit - gasUsed) > SSTORE_SENTRY);
}

type Own = (runState: RunState, common: never) => unknown;
type OwnGas = (runState: RunState, gas: bigint, common: never) => Promise<bigint> | bigint;

const seeingGas = (library: OpHandler): OpHandler => {
  const own: Own = (runState, common) => {
    const w = watches.get(runState.interpreter._evm);
    if (w) w.gasSeen = true;
    return (library as Own)(runState, common);
  };
  return own as OpHandler;
};

const sstoreGas = (library: GasHandler): GasHandler => {
  const own: OwnGas = (runState, gas, common) => {
    const w = watches.get(runState.interpreter._evm);
    if (w) {
      const left = runState.interpreter.getGasLeft();
      if (w.leastLeftAtSstore === undefined || left < w.leastLeftAtSstore) w.leastLeftAtSstore = left;
    }
    return (library as OwnGas)(runState, gas, common);
  };
  return own as GasHandler;
};

/** Makes every EVM this thread builds afterwards report to the watches (once: later calls change nothing). */
export function reportGasSeen(): void {
  swapHandler(0x5a, 'GAS', seeingGas);
  for (const [op, name] of [[0xf0, 'CREATE'], [0xf1, 'CALL'], [0xf2, 'CALLCODE'], [0xf4, 'DELEGATECALL'], [0xf5, 'CREATE2'], [0xfa, 'STATICCALL']] as const) {
    swapHandler(op, name, seeingGas);
  }
  swapGasHandler(0x55, 'SSTORE', sstoreGas);
}

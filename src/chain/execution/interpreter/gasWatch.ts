/**
 * The smallest gas limit with which an execution runs as it did (docs/rpc-workers.md, "Estimates"), read
 * from one run with more gas. Each opcode charges the same whatever the gas left, except where the code can
 * see the gas left, and only the top frame's gas follows the limit: a call handing on a fixed amount gives
 * its callee the same gas whatever the limit, as long as all but a 64th of the caller's gas left covers it.
 * So a run is limit-dependent when its top frame reads `GAS`, creates a contract (the child gets all but a
 * 64th), or has a call's gas cut to all but a 64th. Otherwise it repeats with any limit that leaves, at each
 * of the top frame's points, what that point needs: its end, nothing; an `SSTORE`, more than 2,300 (EIP-2200);
 * a call, its own charge and then a gas left whose all-but-a-64th covers what it hands on.
 */
import { swapGasHandler, swapHandler, type GasHandler, type OpHandler } from './opcodeSwaps.ts';

interface RunState {
  readonly interpreter: { readonly _evm: object; getGasLeft(): bigint };
  readonly env: { readonly depth: number };
  readonly stack: { peek(n: number): bigint[] };
  readonly messageGasLimit?: bigint;
}

/**
 * What a watched execution's top frame did. A point's slack is its gas left less what it needs: how much less
 * gas the whole run could have had and still pass it. Some needs are exact (below them the point fails);
 * a call's 64th is not, when it hands on gas: its callee may have needed less.
 */
export interface GasWatch {
  /** It read its gas left, created a contract, or a call got less than it asked for. */
  dependent: boolean;
  /** The least slack over its points. */
  slack: bigint | undefined;
  /** The least slack over its points' exact needs. */
  exactSlack: bigint | undefined;
}

/** The watch of each EVM whose execution is watched. */
const watches = new WeakMap<object, GasWatch>();

/** Starts watching the next execution of `evm` (one at a time per EVM); `unwatch` ends it. */
export function watch(evm: object): GasWatch {
  const w: GasWatch = { dependent: false, slack: undefined, exactSlack: undefined };
  watches.set(evm, w);
  return w;
}

export const unwatch = (evm: object): void => void watches.delete(evm);

/** The smallest gas limit with which the watched execution runs as it did, and whether it is the smallest. */
export interface NeededGas {
  /** Execution gas (the intrinsic cost not included). */
  readonly gas: bigint;
  /** Every smaller limit fails; otherwise a smaller one may succeed. */
  readonly exact: boolean;
}

/** What the watched execution needs, of `limit` given, `gasUsed` used; undefined when it depends on its limit. */
export function neededGas(w: GasWatch, limit: bigint, gasUsed: bigint): NeededGas | undefined {
  if (w.dependent) return undefined;
  const left = limit - gasUsed;
  const slack = least(left, w.slack);
  return { gas: limit - slack, exact: slack === least(left, w.exactSlack) };
}

const least = (a: bigint, b: bigint | undefined): bigint => (b !== undefined && b < a ? b : a);

/** The top frame's watch, if its EVM is watched. */
const topWatch = (runState: RunState): GasWatch | undefined =>
  runState.env.depth === 0 ? watches.get(runState.interpreter._evm) : undefined;

function note(w: GasWatch, slack: bigint, exact: boolean): void {
  w.slack = least(slack, w.slack);
  if (exact) w.exactSlack = least(slack, w.exactSlack);
}

/** The `SSTORE` sentry (EIP-2200): a store needs more than this much gas left. */
const SSTORE_SENTRY = 2300n;

/** The least gas left whose all but a 64th (EIP-150) is at least `handedOn`. */
export function leftToHandOn(handedOn: bigint): bigint {
  let left = handedOn + handedOn / 63n;
  while (left - left / 64n < handedOn) left++;
  while (left > 0n && left - 1n - (left - 1n) / 64n >= handedOn) left--;
  return left;
}

type Own = (runState: RunState, common: never) => unknown;
type OwnGas = (runState: RunState, gas: bigint, common: never) => Promise<bigint> | bigint;

const dependentAtTop = (library: OpHandler): OpHandler => {
  const own: Own = (runState, common) => {
    const w = topWatch(runState);
    if (w) w.dependent = true;
    return (library as Own)(runState, common);
  };
  return own as OpHandler;
};

const sstoreGas = (library: GasHandler): GasHandler => {
  const own: OwnGas = (runState, gas, common) => {
    const w = topWatch(runState);
    if (w) note(w, runState.interpreter.getGasLeft() - SSTORE_SENTRY - 1n, true);
    return (library as OwnGas)(runState, gas, common);
  };
  return own as GasHandler;
};

/** A call's gas (the library's, which also sets what the callee gets) and what the call needs of the gas left. */
const callGas = (library: GasHandler): GasHandler => {
  const own: OwnGas = async (runState, gas, common) => {
    const w = topWatch(runState);
    if (!w) return (library as OwnGas)(runState, gas, common);
    const asked = runState.stack.peek(1)[0]!;
    const left = runState.interpreter.getGasLeft();
    const charge = await (library as OwnGas)(runState, gas, common);
    const handedOn = runState.messageGasLimit;
    if (handedOn === undefined || handedOn < asked) {
      w.dependent = true;
      return charge;
    }
    // Its own charge is an exact need; the 64th over what it hands on is exact only when it hands on nothing.
    note(w, left - charge, true);
    if (handedOn > 0n) note(w, left - charge - leftToHandOn(handedOn), false);
    return charge;
  };
  return own as GasHandler;
};

/** Makes every EVM this thread builds afterwards report to the watches (once: later calls change nothing). */
export function reportGasNeeds(): void {
  for (const [op, name] of [[0x5a, 'GAS'], [0xf0, 'CREATE'], [0xf5, 'CREATE2']] as const) swapHandler(op, name, dependentAtTop);
  for (const [op, name] of [[0xf1, 'CALL'], [0xf2, 'CALLCODE'], [0xf4, 'DELEGATECALL'], [0xfa, 'STATICCALL']] as const) {
    swapGasHandler(op, name, callGas);
  }
  swapGasHandler(0x55, 'SSTORE', sstoreGas);
}

/**
 * The smallest gas limit with which an execution runs as it did (docs/rpc-workers.md, "Estimates"), read
 * from one run with more gas. Each opcode charges the same whatever the gas left, except where code can see
 * its gas left; and a frame's callee gets the same gas whatever the frame had, when the call hands on a fixed
 * amount that all but a 64th of the frame's gas left covers (EIP-150). So each frame, from the innermost out,
 * says what it needs: its gas used, plus what its points lack at most: an `SSTORE` needs more than 2,300 left
 * (EIP-2200); a call or creation its own charge, then a gas left whose all-but-a-64th covers what the callee
 * needs. A frame depends on its gas, and the answer is not known, when it reads `GAS` other than as the gas of
 * the call that follows, or when a callee that depends on its gas, or ran out of it, got all but a 64th.
 */
import { once, swapGasHandler, swapHandler, type GasHandler, type OpHandler } from './opcodeSwaps.ts';

interface RunState {
  readonly interpreter: { readonly _evm: object; getGasLeft(): bigint };
  readonly env: { readonly depth: number };
  readonly stack: { peek(n: number): bigint[] };
  readonly code: Uint8Array;
  readonly programCounter: number;
  readonly messageGasLimit?: bigint;
}

/**
 * What one frame of a watched execution did. A point's slack is the gas left there less what it needs: how
 * much less gas the frame could have had and still pass it. Some needs are exact (below them the point
 * fails); a call's 64th is not when its callee's need is not.
 */
interface Frame {
  /** It read its gas left, or a callee given all but a 64th depended on its gas or ran out of it. */
  dependent: boolean;
  /** The least slack over its points. */
  slack: bigint | undefined;
  /** The least slack over its points' exact needs. */
  exactSlack: bigint | undefined;
  /** Where the call whose gas the last `GAS` read is (`GAS` right before a call hands on all it has). */
  gasFedCallAt: number;
}

/** A watched execution's frames by depth: the one running at each depth, the top frame first. */
export interface GasWatch {
  readonly frames: Frame[];
}

const newFrame = (): Frame => ({ dependent: false, slack: undefined, exactSlack: undefined, gasFedCallAt: -1 });

/** The watch of each EVM whose execution is watched. */
const watches = new WeakMap<object, GasWatch>();

/** Starts watching the next execution of `evm` (one at a time per EVM); `unwatch` ends it. */
export function watch(evm: object): GasWatch {
  const w: GasWatch = { frames: [newFrame()] };
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
export const neededGas = (w: GasWatch, limit: bigint, gasUsed: bigint): NeededGas | undefined => frameNeed(w.frames[0]!, limit, gasUsed);

function frameNeed(frame: Frame, limit: bigint, gasUsed: bigint): NeededGas | undefined {
  if (frame.dependent) return undefined;
  // Its end needs nothing left: exact.
  const left = limit - gasUsed;
  const slack = least(left, frame.slack);
  return { gas: limit - slack, exact: slack === least(left, frame.exactSlack) };
}

const least = (a: bigint, b: bigint | undefined): bigint => (b !== undefined && b < a ? b : a);

function note(frame: Frame, slack: bigint, exact: boolean): void {
  frame.slack = least(slack, frame.slack);
  if (exact) frame.exactSlack = least(slack, frame.exactSlack);
}

/** The frame running `runState`, if its EVM is watched. */
function frameOf(runState: RunState): [GasWatch, Frame] | undefined {
  const w = watches.get(runState.interpreter._evm);
  const frame = w?.frames[runState.env.depth];
  return frame && [w!, frame];
}

/** The `SSTORE` sentry (EIP-2200): a store needs more than this much gas left. */
const SSTORE_SENTRY = 2300n;
/** What a call handing on value adds to its callee's gas, not charged to the caller. */
export const CALL_STIPEND = 2300n;

const CALL = 0xf1, CALLCODE = 0xf2, DELEGATECALL = 0xf4, STATICCALL = 0xfa, CREATE = 0xf0, CREATE2 = 0xf5;
const CALLS = new Set([CALL, CALLCODE, DELEGATECALL, STATICCALL]);

/** The least gas left whose all but a 64th (EIP-150) is at least `handedOn`. */
function leftToHandOn(handedOn: bigint): bigint {
  if (handedOn <= 0n) return 0n;
  let left = handedOn + handedOn / 63n;
  while (left - left / 64n < handedOn) left++;
  while (left - 1n - (left - 1n) / 64n >= handedOn) left--;
  return left;
}

type Own = (runState: RunState, common: never) => unknown;
type OwnGas = (runState: RunState, gas: bigint, common: never) => Promise<bigint> | bigint;

/** `GAS`: seen by the frame, unless it is the gas of the call right after it (it has no immediate bytes). */
const gasRead = (library: OpHandler): OpHandler => {
  const own: Own = (runState, common) => {
    const frame = frameOf(runState)?.[1];
    if (frame) {
      const next = runState.programCounter;
      if (CALLS.has(runState.code[next]!)) frame.gasFedCallAt = next;
      else frame.dependent = true;
    }
    return (library as Own)(runState, common);
  };
  return own as OpHandler;
};

const sstoreGas = (library: GasHandler): GasHandler => {
  const own: OwnGas = (runState, gas, common) => {
    const frame = frameOf(runState)?.[1];
    if (frame) note(frame, runState.interpreter.getGasLeft() - SSTORE_SENTRY - 1n, true);
    return (library as OwnGas)(runState, gas, common);
  };
  return own as GasHandler;
};

/**
 * A call or creation, run by the library with its callee's frame watched; then what the calling frame needs
 * left for it. Its charge is taken and the program counter is past it when the handler runs.
 */
const callRun = (op: number) => (library: OpHandler): OpHandler => {
  const own: Own = (runState, common) => {
    const watched = frameOf(runState);
    if (!watched) return (library as Own)(runState, common);
    return watchedCall(op, library as Own, runState, common, ...watched);
  };
  return own as OpHandler;
};

async function watchedCall(op: number, library: Own, runState: RunState, common: never, w: GasWatch, frame: Frame): Promise<void> {
  const handedOn = runState.messageGasLimit;
  if (handedOn === undefined) {
    frame.dependent = true;
    return void (await library(runState, common));
  }
  const left = runState.interpreter.getGasLeft();
  const [asked, , value] = runState.stack.peek(3);
  const stipend = (op === CALL || op === CALLCODE) && value !== 0n ? CALL_STIPEND : 0n;
  // A callee's gas is fixed when it got what the call asked for, and the amount asked is not the caller's gas.
  const fixed = CALLS.has(op) && handedOn === asked && frame.gasFedCallAt !== runState.programCounter - 1;
  const callee = newFrame();
  w.frames[runState.env.depth + 1] = callee;
  await library(runState, common);
  const limit = handedOn + stipend;
  const used = left + stipend - runState.interpreter.getGasLeft();
  const ranOut = runState.stack.peek(1)[0] === 0n && used === limit;
  const need = ranOut ? undefined : frameNeed(callee, limit, used);
  note(frame, left, true);
  if (need) note(frame, left - leftToHandOn(need.gas - stipend), need.exact);
  else if (fixed) note(frame, left - leftToHandOn(handedOn), false);
  else frame.dependent = true;
}

/** Makes every EVM this thread builds afterwards report to the watches (once: later calls change nothing). */
export const reportGasNeeds = once(() => {
  swapHandler(0x5a, 'GAS', gasRead);
  for (const [op, name] of [[CALL, 'CALL'], [CALLCODE, 'CALLCODE'], [DELEGATECALL, 'DELEGATECALL'], [STATICCALL, 'STATICCALL'], [CREATE, 'CREATE'], [CREATE2, 'CREATE2']] as const) {
    swapHandler(op, name, callRun(op));
  }
  swapGasHandler(0x55, 'SSTORE', sstoreGas);
});

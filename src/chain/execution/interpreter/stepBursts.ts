/**
 * Opcodes run in bursts, without an await each (docs/rpc-workers.md, "Calls"). @ethereumjs/evm's
 * interpreter awaits every step, as an async function, even an ADD: for a token's balanceOf (about
 * 200 steps) that was a third of the worker's time and two fifths of what it allocated. Here a step
 * runs the following opcodes too, each as the library's own step does it (its dynamic gas, awaited when
 * its gas handler answers with a promise, the invalid-opcode check, the gas, the program counter, the handler, awaited when it is
 * asynchronous): a run of opcodes with a fixed cost and a synchronous handler takes no await at all, and
 * the library's loop takes one turn per burst. A burst hands back to the library's loop before a jump the
 * code has not been analysed for yet (the loop makes the analysis on meeting the first), at the end of
 * the code, or when a call's pending out-of-gas result (EIP-7928) waits for the next step. Every opcode is
 * counted against a main-thread call's time budget (callBudget.ts).
 *
 * The library's own step runs instead whenever a step does more than that: with step listeners (the
 * tracers), in debug mode, with its profiler, with EOF, EIP-7928 or stateless (Verkle, binary-tree) code
 * access rules active, or while a pending EIP-7928 result waits.
 */
import { EVMError } from '@ethereumjs/evm';
import { countOpcode } from './callBudget.ts';
import { interpreterPrototype } from './interpreterClass.ts';

interface OpcodeInfo { readonly feeBigInt: bigint; readonly dynamicGas: boolean; readonly isAsync: boolean; readonly isInvalid: boolean }
interface OpcodeEntry {
  readonly opcodeInfo: OpcodeInfo;
  readonly opHandler: (runState: RunState, common: unknown) => unknown;
  readonly gasHandler?: (runState: RunState, gas: bigint, common: unknown) => Promise<bigint> | bigint;
}
interface RunState {
  programCounter: number;
  opCode: number;
  readonly code: Uint8Array;
  readonly shouldDoJumpAnalysis: boolean;
  readonly eip7928PostTargetCallOog?: unknown;
  readonly env: { readonly accessWitness?: { commit(): void } };
}
interface Interpreter {
  readonly _runState: RunState;
  readonly _evm: { readonly _opcodeMap: readonly OpcodeEntry[]; readonly DEBUG: boolean; readonly events: { listenerCount(event: string): number } };
  readonly common: { isActivatedEIP(eip: number): boolean };
  readonly profilerOpts?: { readonly enabled?: boolean };
  useGas(amount: bigint, context: OpcodeInfo): void;
  runStep(entry?: OpcodeEntry): Promise<void> | undefined;
}

/** JUMP, JUMPI and 0x5e, which the library's loop analyses the code for on first meeting one. */
const ANALYSED_AT = new Set([0x56, 0x57, 0x5e]);

const plain = (entry: OpcodeEntry): boolean => !entry.opcodeInfo.dynamicGas && !entry.opcodeInfo.isAsync;

/** Whether a step of `interp` does no more than (dynamic) gas, program counter and handler. */
function bare(interp: Interpreter): boolean {
  const { common } = interp;
  return interp.profilerOpts?.enabled !== true && !interp._evm.DEBUG && interp._evm.events.listenerCount('step') === 0
    && interp._runState.eip7928PostTargetCallOog === undefined
    && !common.isActivatedEIP(3540) && !common.isActivatedEIP(6800) && !common.isActivatedEIP(7864) && !common.isActivatedEIP(7928);
}

let patched: Promise<void> | undefined;

/** Makes every Interpreter of this thread run opcodes in bursts (once: later calls change nothing). */
export function runStepsInBursts(): Promise<void> {
  patched ??= interpreterPrototype().then((proto) => burstSteps(proto as Interpreter));
  return patched;
}

/**
 * The entry of the opcode at the program counter, made the current opcode, when the burst goes on to
 * it; undefined when the library's loop takes the next step.
 */
function nextEntry(state: RunState, opcodes: readonly OpcodeEntry[]): OpcodeEntry | undefined {
  const pc = state.programCounter;
  if (pc >= state.code.length) return undefined;
  const op = state.code[pc]!;
  if (state.shouldDoJumpAnalysis && ANALYSED_AT.has(op)) return undefined;
  if (state.eip7928PostTargetCallOog !== undefined) return undefined;
  state.opCode = op;
  return opcodes[op];
}

/** Runs plain opcodes from `entry` on; the first other opcode's entry, or undefined when the library's loop takes the next step. */
function runPlain(interp: Interpreter, entry: OpcodeEntry): OpcodeEntry | undefined {
  const state = interp._runState;
  const opcodes = interp._evm._opcodeMap;
  let next: OpcodeEntry | undefined = entry;
  do {
    countOpcode(interp._evm);
    const info = next.opcodeInfo;
    if (info.isInvalid) throw new EVMError(EVMError.errorMessages.INVALID_OPCODE);
    interp.useGas(info.feeBigInt, info);
    state.programCounter++;
    next.opHandler(state, interp.common);
    state.env.accessWitness?.commit();
    next = nextEntry(state, opcodes);
  } while (next !== undefined && plain(next));
  return next;
}

/** Runs `entry`, an opcode with dynamic gas or an awaited handler, as the library's step does, and the burst on from it. */
async function runAwaited(interp: Interpreter, entry: OpcodeEntry): Promise<void> {
  const state = interp._runState;
  const opcodes = interp._evm._opcodeMap;
  for (let next: OpcodeEntry | undefined = entry; next !== undefined;) {
    countOpcode(interp._evm);
    const info = next.opcodeInfo;
    let gas = info.feeBigInt;
    if (info.dynamicGas) {
      // The node's own gas handlers (memoryGas.ts, wordLoads.ts) answer at once: no turn taken for them.
      const dynamic = next.gasHandler!(state, gas, interp.common);
      gas = typeof dynamic === 'bigint' ? dynamic : await dynamic;
    }
    if (info.isInvalid) throw new EVMError(EVMError.errorMessages.INVALID_OPCODE);
    interp.useGas(gas, info);
    state.programCounter++;
    if (info.isAsync) await next.opHandler(state, interp.common);
    else next.opHandler(state, interp.common);
    state.env.accessWitness?.commit();
    next = nextEntry(state, opcodes);
    if (next !== undefined && plain(next)) next = runPlain(interp, next);
  }
}

function burstSteps(proto: Interpreter): void {
  const step = proto.runStep;
  proto.runStep = function (this: Interpreter, first?: OpcodeEntry) {
    if (!bare(this)) return step.call(this, first);
    const entry = first ?? this._evm._opcodeMap[this._runState.opCode]!;
    const next = plain(entry) ? runPlain(this, entry) : entry;
    return next === undefined ? undefined : runAwaited(this, next);
  };
}

/**
 * Plain opcodes run in bursts, without an await each (docs/rpc-workers.md, "Calls"). @ethereumjs/evm's
 * interpreter awaits every step, as an async function, even an ADD: for a token's balanceOf (about
 * 200 steps) that was a third of the worker's time and two fifths of what it allocated. Here a step whose
 * opcode has a fixed gas cost and a synchronous handler runs the following such opcodes too, as the
 * library's own step does each (the invalid-opcode check, the gas, the program counter, the handler),
 * and returns to the library's loop before any other opcode: one with dynamic gas or an awaited handler,
 * a jump before the code's jump analysis (the loop makes it on meeting the first), or the end of the code.
 *
 * The library's own step runs instead whenever a step does more than that: with step listeners (the
 * tracers), in debug mode, with its profiler, with EOF or stateless (Verkle, binary-tree) code access
 * rules active, or while a call's pending out-of-gas result (EIP-7928) waits for the next step.
 */
import { EVMError } from '@ethereumjs/evm';
import { interpreterPrototype } from './interpreterClass.ts';

interface OpcodeInfo { readonly feeBigInt: bigint; readonly dynamicGas: boolean; readonly isAsync: boolean; readonly isInvalid: boolean }
interface OpcodeEntry { readonly opcodeInfo: OpcodeInfo; readonly opHandler: (runState: RunState, common: unknown) => unknown }
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

const plain = (entry: OpcodeEntry | undefined): entry is OpcodeEntry =>
  entry !== undefined && !entry.opcodeInfo.dynamicGas && !entry.opcodeInfo.isAsync;

/** Whether a step of `interp` does no more than gas, program counter and handler. */
function bare(interp: Interpreter): boolean {
  const { common } = interp;
  return interp.profilerOpts?.enabled !== true && !interp._evm.DEBUG && interp._evm.events.listenerCount('step') === 0
    && interp._runState.eip7928PostTargetCallOog === undefined
    && !common.isActivatedEIP(3540) && !common.isActivatedEIP(6800) && !common.isActivatedEIP(7864);
}

let patched: Promise<void> | undefined;

/** Makes every Interpreter of this thread run plain opcodes in bursts (once: later calls change nothing). */
export function runStepsInBursts(): Promise<void> {
  patched ??= interpreterPrototype().then((proto) => burstSteps(proto as Interpreter));
  return patched;
}

function burstSteps(proto: Interpreter): void {
  const step = proto.runStep;
  proto.runStep = function (this: Interpreter, first?: OpcodeEntry) {
    const state = this._runState;
    const opcodes = this._evm._opcodeMap;
    let entry = first ?? opcodes[state.opCode];
    if (!plain(entry) || !bare(this)) return step.call(this, first);
    for (;;) {
      const info = entry.opcodeInfo;
      if (info.isInvalid) throw new EVMError(EVMError.errorMessages.INVALID_OPCODE);
      this.useGas(info.feeBigInt, info);
      state.programCounter++;
      entry.opHandler(state, this.common);
      state.env.accessWitness?.commit();
      const pc = state.programCounter;
      if (pc >= state.code.length) return undefined;
      const op = state.code[pc]!;
      if (state.shouldDoJumpAnalysis && ANALYSED_AT.has(op)) return undefined;
      const next = opcodes[op];
      if (!plain(next) || state.eip7928PostTargetCallOog !== undefined) return undefined;
      state.opCode = op;
      entry = next;
    }
  };
}

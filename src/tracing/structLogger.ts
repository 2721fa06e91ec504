/**
 * The default debug_trace* tracer: one entry per executed opcode (pc, op, gas, gasCost, depth,
 * stack, memory, storage), as go-ethereum's struct logger writes it, plus the reference node's
 * summary fields (README "Tracing"). Storage shows, on SLOAD and SSTORE steps, the slots of the
 * executing contract touched so far in the transaction.
 */
import type { InterpreterStep } from '@ethereumjs/evm';
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { NodeError } from '../errors.ts';
import type { TracedTx, TxOutcome, TxTracer } from './replay.ts';

export interface StructLogOptions {
  readonly disableMemory: boolean;
  readonly disableStack: boolean;
  readonly disableStorage: boolean;
}

export interface StructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  /** 1 for the transaction's own frame. */
  depth: number;
  stack?: string[];
  memory?: string[];
  storage?: Record<string, string>;
}

export interface StructTrace {
  /** Gas the transaction paid for. */
  gas: number;
  failed: boolean;
  /** Return (or revert) data, hex without 0x; `result` repeats it under the reference's name. */
  returnValue: string;
  structLogs: StructLog[];
  /** The called or created contract, hex without 0x. */
  contractAddress: string;
  result: string;
  /** The EVM error, '' when none. */
  error: string;
  reverted: boolean;
}

/** Bytes of struct logs one request may produce, counted as the JSON they become. */
export const MAX_TRACE_BYTES = 64 * 1024 * 1024;

/**
 * The remaining size allowance of one request, shared by the transactions it traces. Its error advises
 * only what can help: the disable flags when the steps so far would fit without memory, stack and
 * storage, and always the callTracer, whose size grows with the calls, not the steps.
 */
export class TraceBudget {
  #left = MAX_TRACE_BYTES;
  #steps = 0;
  /** Bytes the steps so far would take with memory, stack and storage disabled. */
  #bare = 0;

  /** Charges `bytes`: one step's entry of which `bare` bytes remain when everything is disabled, or (`bare` 0) storage of a step. */
  spend(bytes: number, bare = 0): void {
    this.#left -= bytes;
    if (bare) {
      this.#steps++;
      this.#bare += bare;
    }
    if (this.#left >= 0) return;
    const flagsHelp = this.#bare <= MAX_TRACE_BYTES;
    throw new NodeError('LIMIT_EXCEEDED', `trace too large: its struct logs passed ${MAX_TRACE_BYTES >> 20} MiB after ${this.#steps} steps; `
      + (flagsHelp
        ? 'disableMemory, disableStack and disableStorage make each step smaller (the transaction may have more steps still), or use '
        : 'even without memory, stack and storage those steps would not fit: use ')
      + 'the callTracer (one entry per call, not per step), or trace_transaction');
  }
}

const plain = (bytes: Uint8Array) => bytesToHex(bytes).slice(2);
const word = (n: bigint) => plain(setLengthLeft(bigIntToBytes(n), 32));

export function structLogTracer(opts: StructLogOptions, budget: TraceBudget): TxTracer<StructTrace> {
  const structLogs: StructLog[] = [];
  /** Touched slots by contract address (hex). */
  const storage = new Map<string, Record<string, string>>();

  const slotsOf = (step: InterpreterStep) => {
    const key = step.address.toString();
    let slots = storage.get(key);
    if (!slots) storage.set(key, (slots = {}));
    return slots;
  };

  const record = (step: InterpreterStep): StructLog => {
    const entry: StructLog = {
      pc: step.pc, op: step.opcode.name, gas: Number(step.gasLeft), gasCost: Number(step.opcode.dynamicFee ?? BigInt(step.opcode.fee)),
      depth: step.depth + 1,
    };
    const bare = 80 + entry.op.length;
    let bytes = bare;
    if (!opts.disableStack) {
      entry.stack = step.stack.map((v) => `0x${v.toString(16)}`);
      bytes += entry.stack.reduce((n, s) => n + s.length + 3, 0);
    }
    if (!opts.disableMemory) {
      entry.memory = [];
      for (let i = 0; i < step.memory.length; i += 32) entry.memory.push(plain(step.memory.subarray(i, i + 32)));
      bytes += entry.memory.length * 67;
    }
    budget.spend(bytes, bare);
    structLogs.push(entry);
    return entry;
  };

  // Two parameters: the EVM waits for `done` before it runs the opcode, so SLOAD can read the slot.
  // A throw here (the size budget) rejects the EVM's wait, which stops the replay with that error.
  const onStep = (step: InterpreterStep, done?: () => void) => {
    const entry = record(step);
    const op = step.opcode.name;
    if (opts.disableStorage || (op !== 'SLOAD' && op !== 'SSTORE')) return done?.();
    // Too few stack items: the opcode fails right after this step, touching no storage.
    if (step.stack.length < (op === 'SSTORE' ? 2 : 1)) return done?.();
    const top = step.stack[step.stack.length - 1]!;
    const slots = slotsOf(step);
    budget.spend((Object.keys(slots).length + 1) * 134);
    if (op === 'SSTORE') {
      slots[word(top)] = word(step.stack[step.stack.length - 2]!);
      entry.storage = { ...slots };
      return done?.();
    }
    // A failed read is left to the SLOAD itself, which reads the same slot next and fails the replay.
    step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(top), 32)).then((value) => {
      slots[word(top)] = plain(setLengthLeft(value, 32));
      entry.storage = { ...slots };
    }, () => undefined).finally(() => done?.());
  };

  return {
    listeners: { step: onStep },
    finish(tx: TracedTx, run: TxOutcome): StructTrace {
      const r = run.execResult;
      const target = run.createdAddress ?? tx.to;
      return {
        gas: Number(run.totalGasSpent), failed: r.exceptionError !== undefined, returnValue: plain(r.returnValue), structLogs,
        contractAddress: target ? plain(target.bytes) : '', result: plain(r.returnValue), error: r.exceptionError?.error ?? '',
        reverted: r.exceptionError?.error === 'revert',
      };
    },
  };
}

/**
 * The default debug_trace* tracer: one entry per executed opcode (pc, op, gas, gasCost, depth,
 * stack, memory, storage), as go-ethereum's struct logger writes it, plus the reference node's
 * summary fields (README "Tracing"). Storage shows, on SLOAD and SSTORE steps, the slots of the
 * executing contract touched so far in the transaction. Entries are written as JSON text as the steps
 * run, so a trace is never held as objects (docs/rpc-workers.md, "Streamed traces").
 */
import type { InterpreterStep } from '@ethereumjs/evm';
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import type { TraceOutput } from './output.ts';
import type { TracedTx, TxOutcome, TxTracer } from '../chain/execution/tracer.ts';

export interface StructLogOptions {
  readonly disableMemory: boolean;
  readonly disableStack: boolean;
  readonly disableStorage: boolean;
}

const plain = (bytes: Uint8Array) => bytesToHex(bytes).slice(2);
const word = (n: bigint) => plain(setLengthLeft(bigIntToBytes(n), 32));

/**
 * A tracer writing one transaction's trace to `out` as JSON text, each step's entry as it runs:
 * `{"structLogs":[{pc, op, gas, gasCost, depth, stack, memory, storage}, …], "gas", "failed",
 * "returnValue", "contractAddress", "result", "error", "reverted"}`, the entries as go-ethereum's
 * struct logger writes them (depth 1 for the transaction's own frame), the others the reference
 * node's summary fields (gas paid for; return or revert data, and the called or created contract, as
 * hex without 0x; `result` repeats `returnValue`; `error` is the EVM error, '' when none).
 */
export function structLogTracer(opts: StructLogOptions, out: TraceOutput): TxTracer<void> {
  let entries = 0;
  /** A write that failed after the EVM's wait was over (the size bound, on an SLOAD step): thrown at the next step. */
  let failure: unknown;
  /** Touched slots by contract address (hex). */
  const storage = new Map<string, Record<string, string>>();

  const slotsOf = (step: InterpreterStep) => {
    const key = step.address.toString();
    let slots = storage.get(key);
    if (!slots) storage.set(key, (slots = {}));
    return slots;
  };

  /** Bytes of the last step's entry with memory, stack and storage disabled. */
  let bare = 0;
  /** The step's entry without its closing brace (storage may follow). Per step: no closures, few allocations. */
  const entryOf = (step: InterpreterStep): string => {
    const gasCost = step.opcode.dynamicFee ?? BigInt(step.opcode.fee);
    let text = `${entries++ ? ',' : '{"structLogs":['}{"pc":${step.pc},"op":"${step.opcode.name}","gas":${step.gasLeft},"gasCost":${gasCost},"depth":${step.depth + 1}`;
    bare = text.length + 1;
    if (!opts.disableStack) {
      text += ',"stack":[';
      for (let i = 0; i < step.stack.length; i++) text += `${i ? ',' : ''}"0x${step.stack[i]!.toString(16)}"`;
      text += ']';
    }
    if (!opts.disableMemory) {
      if (!step.memory.length) return `${text},"memory":[]`;
      const hex = Buffer.from(step.memory.buffer, step.memory.byteOffset, step.memory.length).toString('hex');
      text += ',"memory":[';
      for (let i = 0; i < hex.length; i += 64) text += `${i ? ',' : ''}"${hex.slice(i, i + 64)}"`;
      text += ']';
    }
    return text;
  };

  const write = (text: string, done?: () => void) => {
    const waiting = out.write(text, bare);
    if (waiting) void waiting.then(done);
    else done?.();
  };

  // Two parameters: the EVM waits for `done` before it runs the opcode, so SLOAD can read the slot and
  // a streamed trace can wait for its client. A throw here (the size bound) rejects the EVM's wait,
  // which stops the replay with that error.
  const onStep = (step: InterpreterStep, done?: () => void) => {
    if (failure) throw failure;
    const entry = entryOf(step);
    const op = step.opcode.name;
    // Too few stack items: the opcode fails right after this step, touching no storage.
    if (opts.disableStorage || (op !== 'SLOAD' && op !== 'SSTORE') || step.stack.length < (op === 'SSTORE' ? 2 : 1)) return write(`${entry}}`, done);
    const top = step.stack[step.stack.length - 1]!;
    const slots = slotsOf(step);
    if (op === 'SSTORE') {
      slots[word(top)] = word(step.stack[step.stack.length - 2]!);
      return write(`${entry},"storage":${JSON.stringify(slots)}}`, done);
    }
    // A failed read is left to the SLOAD itself, which reads the same slot next and fails the replay.
    const stepBare = bare;
    step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(top), 32)).then((value) => {
      slots[word(top)] = plain(setLengthLeft(value, 32));
      return `${entry},"storage":${JSON.stringify(slots)}}`;
    }, () => `${entry}}`).then((text) => {
      bare = stepBare;
      write(text, done);
    }).catch((err: unknown) => {
      failure = err;
      done?.();
    });
  };

  return {
    listeners: { step: onStep },
    finish(tx: TracedTx, run: TxOutcome): void {
      if (failure) throw failure;
      const r = run.execResult;
      const target = run.createdAddress ?? tx.to;
      const summary = JSON.stringify({
        gas: Number(run.totalGasSpent), failed: r.exceptionError !== undefined, returnValue: plain(r.returnValue),
        contractAddress: target ? plain(target.bytes) : '', result: plain(r.returnValue), error: r.exceptionError?.error ?? '',
        reverted: r.exceptionError?.error === 'revert',
      });
      void out.write(`${entries ? '],' : '{"structLogs":[],'}${summary.slice(1)}`);
    },
  };
}

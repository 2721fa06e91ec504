/**
 * The call tree of one transaction, collected from the EVM's message events: every CALL,
 * CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2 and SELFDESTRUCT, with gas, input, output,
 * error and the logs each frame emitted. callTracer and the parity-style trace_* methods are
 * both views of this tree.
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { bigIntToBytes, setLengthLeft, type Address } from '@ethereumjs/util';
import { EMPTY } from '../chain/codec/bytes.ts';
import type { TracedTx, TxOutcome, TxTracer } from '../chain/execution/tracer.ts';

export type FrameType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT';

export interface FrameLog {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** How many child calls of the frame came before this log. */
  readonly position: number;
}

export interface CallFrame {
  readonly type: FrameType;
  readonly from: Uint8Array;
  /** Callee, code address (DELEGATECALL, CALLCODE), created contract or SELFDESTRUCT beneficiary. */
  to: Uint8Array | undefined;
  readonly value: bigint;
  /** Gas given to the frame; for the top frame, gas after the intrinsic cost. */
  readonly gas: bigint;
  gasUsed: bigint;
  readonly input: Uint8Array;
  output: Uint8Array;
  /** The EVM's error name ('revert', 'out of gas', …), undefined on success. */
  error: string | undefined;
  readonly calls: CallFrame[];
  readonly logs: FrameLog[];
}

/** The call tree of a transaction, with the totals of the transaction itself. */
export interface TxCallTrace {
  readonly tx: TracedTx;
  readonly root: CallFrame;
  /** Gas the transaction paid for (intrinsic included). */
  readonly gasUsed: bigint;
}

const CALL_OPS = new Set<FrameType>(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const LOG_OPS = new Map([['LOG0', 0], ['LOG1', 1], ['LOG2', 2], ['LOG3', 3], ['LOG4', 4]]);

/** A tracer that records the call tree; `withLogs` keeps each frame's LOG records too. */
export function callFrameTracer(withLogs: boolean): TxTracer<TxCallTrace> {
  const stack: CallFrame[] = [];
  let root: CallFrame | undefined;
  /** The opcode and executing account of the last step, which is the opcode that opens a new frame. */
  let lastOp: { name: string; address: Address } | undefined;

  const onStep = (step: InterpreterStep) => {
    const name = step.opcode.name;
    lastOp = { name, address: step.address };
    const frame = stack[stack.length - 1];
    if (!frame) return;
    // With too few stack items an opcode fails right after its step: there is nothing to record.
    if (name === 'SELFDESTRUCT' && step.stack.length >= 1) {
      frame.calls.push({
        type: 'SELFDESTRUCT', from: step.address.bytes, to: wordToAddress(step.stack[step.stack.length - 1]!),
        value: step.account.balance, gas: 0n, gasUsed: 0n, input: EMPTY, output: EMPTY, error: undefined, calls: [], logs: [],
      });
    }
    const topicCount = LOG_OPS.get(name);
    const log = withLogs && topicCount !== undefined && step.stack.length >= 2 + topicCount ? logOf(step, topicCount, frame.calls.length) : undefined;
    if (log) frame.logs.push(log);
  };

  // Message data and return values can be views of EVM memory that later steps overwrite: frames keep copies.
  const onBeforeMessage = (msg: Message) => {
    const opened = msg.depth > 0 && lastOp && CALL_OPS.has(lastOp.name as FrameType) ? lastOp : undefined;
    const type: FrameType = opened ? opened.name as FrameType : msg.to ? 'CALL' : 'CREATE';
    const frame: CallFrame = {
      type,
      from: opened ? opened.address.bytes : msg.caller.bytes,
      // DELEGATECALL and CALLCODE run the code of `codeAddress` on the caller's account: the trace names the code.
      to: msg.to ? msg.codeAddress.bytes : undefined,
      value: msg.value, gas: msg.gasLimit, gasUsed: 0n, input: msg.data.slice(), output: EMPTY, error: undefined, calls: [], logs: [],
    };
    stack[stack.length - 1]?.calls.push(frame);
    stack.push(frame);
    root ??= frame;
  };

  const onNewContract = (event: { address: Address }) => {
    const frame = stack[stack.length - 1];
    if (frame && frame.to === undefined) frame.to = event.address.bytes;
  };

  const onAfterMessage = (result: EVMResult) => {
    const frame = stack.pop();
    if (!frame) return;
    const r = result.execResult;
    frame.gasUsed = r.executionGasUsed;
    frame.output = r.returnValue.slice();
    frame.error = r.exceptionError?.error;
    if (frame.to === undefined && result.createdAddress) frame.to = result.createdAddress.bytes;
    // Logs of a failed frame were rolled back with it, and so were its children's.
    if (frame.error) dropLogs(frame);
  };

  return {
    listeners: { step: onStep, beforeMessage: onBeforeMessage, afterMessage: onAfterMessage, newContract: onNewContract },
    finish(tx: TracedTx, run: TxOutcome): TxCallTrace {
      if (!root) throw new Error('the transaction ran without an EVM message');
      return { tx, root, gasUsed: run.totalGasSpent };
    },
  };
}

function dropLogs(frame: CallFrame): void {
  frame.logs.length = 0;
  for (const child of frame.calls) dropLogs(child);
}

const wordBytes = (word: bigint): Uint8Array => setLengthLeft(bigIntToBytes(word), 32);
const wordToAddress = (word: bigint): Uint8Array => wordBytes(word).subarray(12);

/**
 * A LOG record beyond this size cannot be paid for within a block's gas (memory cost grows with its
 * square); such a LOG fails, so its record is dropped with its frame anyway.
 */
const MAX_LOG_BYTES = 1n << 24n;

/** LOGn reads (offset, size, topic…) from the stack top and the data from memory. */
function logOf(step: InterpreterStep, topicCount: number, position: number): FrameLog | undefined {
  const s = step.stack;
  const at = (i: number) => s[s.length - 1 - i]!;
  if (at(1) > MAX_LOG_BYTES || at(0) > MAX_LOG_BYTES << 8n) return undefined;
  const offset = Number(at(0));
  const size = Number(at(1));
  const data = new Uint8Array(size);
  // Memory in the step is the part written so far; bytes beyond it read as zero.
  data.set(step.memory.subarray(Math.min(offset, step.memory.length), Math.min(offset + size, step.memory.length)));
  const topics = Array.from({ length: topicCount }, (_, i) => wordBytes(at(2 + i)));
  return { address: step.address.bytes, topics, data, position };
}

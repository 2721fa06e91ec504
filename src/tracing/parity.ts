/**
 * Parity/OpenEthereum-style traces (README "Tracing"): the call tree flattened depth-first, each
 * entry with its `traceAddress` (child indexes from the top call) and `subtraces` (child count).
 */
import { hex, quantity } from '../chain/codec/bytes.ts';
import type { CallFrame, TxCallTrace } from './frames.ts';

export interface TracePosition {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly transactionPosition: number;
}

export interface ParityTrace {
  action: Record<string, unknown>;
  blockHash: string;
  blockNumber: number;
  transactionHash: string;
  transactionPosition: number;
  type: 'call' | 'create' | 'suicide';
  subtraces: number;
  traceAddress: number[];
  /** Always present: null for a failed frame and for a suicide. */
  result: Record<string, unknown> | null;
  error?: string;
}

/** OpenEthereum's words for the EVM's errors. */
const ERROR_TEXT: Record<string, string> = {
  'revert': 'Reverted',
  'out of gas': 'Out of gas',
  'invalid opcode': 'Bad instruction',
  'invalid JUMP': 'Bad jump destination',
  'stack underflow': 'Stack underflow',
  'stack overflow': 'Out of stack',
  'static state change': 'Mutable Call In Static Context',
};

export function parityTraces(trace: TxCallTrace, pos: TracePosition): ParityTrace[] {
  const out: ParityTrace[] = [];
  const common = {
    blockHash: hex(pos.blockHash), blockNumber: Number(pos.blockNumber), transactionHash: hex(trace.tx.hash()),
    transactionPosition: pos.transactionPosition,
  };
  const walk = (frame: CallFrame, traceAddress: number[]) => {
    const entry: ParityTrace = {
      ...describe(frame), ...common, subtraces: frame.calls.length, traceAddress,
    };
    if (frame.error) entry.error = ERROR_TEXT[frame.error] ?? frame.error.charAt(0).toUpperCase() + frame.error.slice(1);
    out.push(entry);
    frame.calls.forEach((child, i) => walk(child, [...traceAddress, i]));
  };
  walk(trace.root, []);
  return out;
}

function describe(frame: CallFrame): Pick<ParityTrace, 'action' | 'type' | 'result'> {
  const to = frame.to ? hex(frame.to) : null;
  switch (frame.type) {
    case 'SELFDESTRUCT':
      return { type: 'suicide', action: { address: hex(frame.from), refundAddress: to, balance: quantity(frame.value) }, result: null };
    case 'CREATE':
    case 'CREATE2':
      return {
        type: 'create',
        action: { from: hex(frame.from), gas: quantity(frame.gas), init: hex(frame.input), value: quantity(frame.value), creationMethod: frame.type.toLowerCase() },
        result: frame.error ? null : { gasUsed: quantity(frame.gasUsed), code: hex(frame.output), address: to },
      };
    default:
      return {
        type: 'call',
        action: {
          callType: frame.type.toLowerCase(), from: hex(frame.from), to, gas: quantity(frame.gas), input: hex(frame.input),
          value: quantity(frame.value),
        },
        result: frame.error ? null : { gasUsed: quantity(frame.gasUsed), output: hex(frame.output) },
      };
  }
}

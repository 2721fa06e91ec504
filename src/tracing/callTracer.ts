/**
 * callTracer output (go-ethereum's shape, as the reference node's callTracer writes it): one nested
 * object per frame, `calls` for its children, hex quantities, fields without a value left out.
 */
import { hex, quantity } from '../chain/codec/bytes.ts';
import { revertReason } from '../chain/execution/revertReason.ts';
import type { CallFrame, TxCallTrace } from './frames.ts';

export interface CallTracerOptions {
  readonly onlyTopCall: boolean;
  readonly withLog: boolean;
}

/** go-ethereum's words for the EVM errors whose names differ. */
const ERROR_TEXT: Record<string, string> = {
  'revert': 'execution reverted',
  'invalid JUMP': 'invalid jump destination',
  'static state change': 'write protection',
};

export function formatCallTrace(trace: TxCallTrace, opts: CallTracerOptions): Record<string, unknown> {
  // The top frame reports the transaction's gas limit and the gas it paid for, intrinsic cost included.
  return formatFrame(trace.root, opts, { gas: trace.tx.gasLimit, gasUsed: trace.gasUsed });
}

function formatFrame(frame: CallFrame, opts: CallTracerOptions, top?: { gas: bigint; gasUsed: bigint }): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: frame.type,
    from: hex(frame.from),
    to: frame.to ? hex(frame.to) : undefined,
    value: frame.type === 'STATICCALL' ? undefined : quantity(frame.value),
    gas: quantity(top?.gas ?? frame.gas),
    gasUsed: quantity(top?.gasUsed ?? frame.gasUsed),
    input: hex(frame.input),
    output: frame.output.length ? hex(frame.output) : undefined,
  };
  if (frame.error) {
    out.error = ERROR_TEXT[frame.error] ?? frame.error;
    if (frame.error === 'revert') out.revertReason = revertReason(frame.output);
  }
  if (!opts.onlyTopCall && frame.calls.length) out.calls = frame.calls.map((c) => formatFrame(c, opts));
  if (opts.withLog && frame.logs.length) {
    out.logs = frame.logs.map((l) => ({ address: hex(l.address), topics: l.topics.map(hex), data: hex(l.data), position: quantity(l.position) }));
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}

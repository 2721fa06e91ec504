/**
 * What a tracer is to execution: listeners on the EVM's events while one transaction (or call) runs,
 * and a summary made of how it ended. Block replay (src/tracing) and calls (src/chain/calls.ts) run
 * tracers; the tracers themselves live in src/tracing.
 */
import type { EVM, EVMResult, ExecResult, InterpreterStep, Message } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';

/**
 * EVM event listeners a tracer attaches while its transaction runs. A step listener that takes
 * `done` makes the EVM wait for it before running the opcode.
 */
export interface TraceListeners {
  step?(step: InterpreterStep, done?: () => void): void;
  beforeMessage?(msg: Message): void;
  afterMessage?(result: EVMResult): void;
  newContract?(event: { address: Address; code: Uint8Array }): void;
}

/** What a tracer needs to know of the traced transaction (or call: debug_traceCall), besides its steps. */
export type TracedTx = Pick<TypedTransaction, 'to' | 'gasLimit' | 'hash'>;

/** How it ended (a RunTxResult is one). */
export interface TxOutcome {
  readonly execResult: ExecResult;
  /** Gas paid for, intrinsic cost included. */
  readonly totalGasSpent: bigint;
  readonly createdAddress?: Address;
}

/** Observes one transaction's execution and turns it into a trace of type T. */
export interface TxTracer<T> {
  readonly listeners: TraceListeners;
  finish(tx: TracedTx, run: TxOutcome): T;
}

/** Adds the listeners to the EVM's events; the function returned removes them. */
export function attach(evm: EVM, listeners: TraceListeners): () => void {
  const entries = Object.entries(listeners) as [never, never][];
  for (const [event, fn] of entries) evm.events.on(event, fn);
  return () => {
    for (const [event, fn] of entries) evm.events.off(event, fn);
  };
}

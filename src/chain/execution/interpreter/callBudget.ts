/**
 * A time budget for a call the main thread runs (docs/rpc-workers.md, "Calls on the main thread"): an EVM
 * given a deadline stops with CallOverBudget once its interpreter runs past it, so a call cannot hold the
 * thread that builds blocks and answers every other request. The interpreter's bursts (stepBursts.ts) look
 * at the clock once every CHECK_EVERY opcodes of any EVM; an EVM without a deadline (block execution, the
 * workers' calls) is never stopped.
 */
const deadlines = new WeakMap<object, number>();

/** Opcodes run between two looks at the clock: a loop of cheap opcodes runs about 1,000 in 10 to 40 µs. */
const CHECK_EVERY = 1_024;
let sinceCheck = 0;

export class CallOverBudget extends Error {
  constructor() {
    super('the call ran past its time budget on the main thread');
  }
}

/** Stops `evm` once the clock (performance.now()) passes `at`. */
export function setDeadline(evm: object, at: number): void {
  deadlines.set(evm, at);
}

export function clearDeadline(evm: object): void {
  deadlines.delete(evm);
}

/** Counts an opcode of `evm`; every CHECK_EVERY opcodes, throws CallOverBudget if its deadline passed. */
export function countOpcode(evm: object): void {
  if (++sinceCheck < CHECK_EVERY) return;
  sinceCheck = 0;
  const at = deadlines.get(evm);
  if (at !== undefined && performance.now() > at) throw new CallOverBudget();
}

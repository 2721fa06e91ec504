/**
 * The prototype of @ethereumjs/evm's Interpreter, which the package does not export: found through
 * the run state that a throwaway EVM hands to its STOP handler. The node's changes to the
 * interpreter (jumpAnalysis.ts, stepBursts.ts) are made on it (docs/rpc-workers.md, "Calls").
 */
import { createEVM } from '@ethereumjs/evm';

interface OpcodeEntry { opHandler: (runState: { interpreter: object }, common: unknown) => unknown }

let found: Promise<object> | undefined;

/** The Interpreter's prototype (one per thread: the same object for every EVM the thread makes). */
export function interpreterPrototype(): Promise<object> {
  found ??= (async () => {
    const evm = await createEVM();
    const stop = (evm as unknown as { _opcodeMap: OpcodeEntry[] })._opcodeMap[0x00]!;
    const handler = stop.opHandler;
    let proto: object | undefined;
    stop.opHandler = (runState, common) => {
      proto = Object.getPrototypeOf(runState.interpreter) as object;
      return handler(runState, common);
    };
    await evm.runCode({ code: Uint8Array.of(0x00) });
    if (!proto) throw new Error('the EVM ran no STOP: its interpreter was not found');
    return proto;
  })();
  return found;
}

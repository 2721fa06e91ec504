/**
 * Opcodes of the workers' EVMs replaced by the worker's own versions (docs/rpc-workers.md, "Calls"):
 * `EVM.prototype.getActiveOpcodes` builds every EVM's opcode table (at its creation and at each hardfork
 * change); each swap is applied to the table it built. An EVM given its own opcodes keeps them, and an
 * entry is swapped only while it is the library's opcode of that name.
 */
import { EVM } from '@ethereumjs/evm';

/** An opcode's handler and gas handler, by the library's signatures (each swap names its run state's parts). */
export type OpHandler = (runState: never, common: never) => unknown;
export type GasHandler = (runState: never, gas: bigint, common: never) => Promise<bigint> | bigint;
interface OpcodeEntry {
  readonly opcodeInfo: { readonly name: string };
  readonly opHandler: OpHandler;
  readonly gasHandler?: GasHandler;
}
interface Opcodes {
  _opcodeMap: OpcodeEntry[];
  _handlers: Map<number, OpHandler>;
  _dynamicGasHandlers: Map<number, GasHandler>;
  readonly _customOpcodes?: readonly unknown[];
  getActiveOpcodes(): unknown;
}

/** A swap: the opcode, its name in the library's table, and what replaces its handler, its gas handler or both (given the library's entry). */
export interface OpcodeSwap {
  readonly opcode: number;
  readonly name: string;
  swap(library: { readonly opHandler: OpHandler; readonly gasHandler?: GasHandler }): { opHandler?: OpHandler; gasHandler?: GasHandler };
}

const swaps = new Map<number, OpcodeSwap>();
let patched = false;

/** Makes every EVM this thread builds afterwards use `swap` (once per opcode: later calls change nothing). */
export function swapOpcode(swap: OpcodeSwap): void {
  if (!swaps.has(swap.opcode)) swaps.set(swap.opcode, swap);
  if (patched) return;
  patched = true;
  const proto = EVM.prototype as unknown as Opcodes;
  const active = proto.getActiveOpcodes;
  proto.getActiveOpcodes = function (this: Opcodes) {
    const opcodes = active.call(this);
    if (this._customOpcodes !== undefined) return opcodes;
    for (const { opcode, name, swap: replace } of swaps.values()) {
      const entry = this._opcodeMap[opcode];
      if (entry?.opcodeInfo.name !== name) continue;
      const { opHandler, gasHandler } = replace(entry);
      this._opcodeMap[opcode] = { ...entry, ...(opHandler ? { opHandler } : {}), ...(gasHandler ? { gasHandler } : {}) };
      if (opHandler) this._handlers.set(opcode, opHandler);
      if (gasHandler) this._dynamicGasHandlers.set(opcode, gasHandler);
    }
    return opcodes;
  };
}

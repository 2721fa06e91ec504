/**
 * Opcode handlers and gas handlers of the node's EVMs replaced by its own (docs/rpc-workers.md,
 * "Calls"): `EVM.prototype.getActiveOpcodes` builds every EVM's opcode table (at its creation and at each
 * hardfork change), and each swap is applied to the table it built. An EVM given its own opcodes keeps
 * them, and an entry is swapped only while it is the library's opcode of that name. Swaps of the same
 * handler stack in the order they were first made, each given the one before it as `library` (SSTORE's gas:
 * the node's own, then the gas watch's note around it). So each module makes its swaps once (`once`).
 */
import { EVM } from '@ethereumjs/evm';

/** An opcode's handler and gas handler, by the library's signatures (each swap names its run state's parts). */
export type OpHandler = (runState: never, common: never) => unknown;
export type GasHandler = (runState: never, gas: bigint, common: never) => Promise<bigint> | bigint;

interface OpcodeEntry { readonly opcodeInfo: { readonly name: string }; readonly opHandler: OpHandler; readonly gasHandler?: GasHandler }
interface Opcodes {
  _opcodeMap: OpcodeEntry[];
  _handlers: Map<number, OpHandler>;
  _dynamicGasHandlers: Map<number, GasHandler>;
  readonly _customOpcodes?: readonly unknown[];
  getActiveOpcodes(): unknown;
}

type Part = 'opHandler' | 'gasHandler';
interface Swap { readonly opcode: number; readonly name: string; readonly part: Part; make(library: never): OpHandler | GasHandler }

/** The swaps, by opcode and part, in the order they were made. */
const swaps = new Map<string, Swap[]>();
let patched = false;

/** Makes every EVM this thread builds afterwards run `make(the library's handler)` as the handler of `opcode`, named `name`. */
export function swapHandler(opcode: number, name: string, make: (library: OpHandler) => OpHandler): void {
  add({ opcode, name, part: 'opHandler', make });
}

/** Makes every EVM this thread builds afterwards run `make(the library's gas handler)` as the gas handler of `opcode`, named `name` (an opcode with dynamic gas). */
export function swapGasHandler(opcode: number, name: string, make: (library: GasHandler) => GasHandler): void {
  add({ opcode, name, part: 'gasHandler', make });
}

/** `makeSwaps` to be run once per thread: later calls change nothing. */
export function once(makeSwaps: () => void): () => void {
  let made = false;
  return () => {
    if (made) return;
    made = true;
    makeSwaps();
  };
}

function add(swap: Swap): void {
  const key = `${swap.opcode}.${swap.part}`;
  swaps.set(key, [...(swaps.get(key) ?? []), swap]);
  if (patched) return;
  patched = true;
  const proto = EVM.prototype as unknown as Opcodes;
  const active = proto.getActiveOpcodes;
  proto.getActiveOpcodes = function (this: Opcodes) {
    const opcodes = active.call(this);
    if (this._customOpcodes === undefined) for (const stack of swaps.values()) for (const s of stack) apply(this, s);
    return opcodes;
  };
}

function apply(table: Opcodes, { opcode, name, part, make }: Swap): void {
  const entry = table._opcodeMap[opcode];
  const library = entry?.[part];
  if (entry?.opcodeInfo.name !== name || library === undefined) return;
  const own = make(library as never);
  table._opcodeMap[opcode] = { ...entry, [part]: own };
  if (part === 'opHandler') table._handlers.set(opcode, own as OpHandler);
  else table._dynamicGasHandlers.set(opcode, own as GasHandler);
}

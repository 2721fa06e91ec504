/**
 * Parameters the hosted description marks required where the node description leaves them optional
 * (docs/rpc-conformance.md, "Required parameters"): the hosted endpoint refuses eth_call without its block selector, with -32602 naming it.
 * The hosted `to` of eth_estimateGas is not enforced ("Deviations"): clients estimate contract creations
 * without one (README, "Deviations").
 */
import { invalidParams } from './errors.ts';
import type { MethodDef, Methods } from './method.ts';

const HOSTED_REQUIRED: Readonly<Record<string, { readonly at: number; readonly name: string }>> = {
  eth_call: { at: 1, name: 'block' },
};

/** `methods` with the hosted requirements checked before each call. */
export function withHostedRequirements(methods: Methods): Methods {
  const out = { ...methods };
  for (const [method, { at, name }] of Object.entries(HOSTED_REQUIRED)) {
    const def = methods[method];
    if (!def) continue;
    out[method] = {
      paramCount: def.paramCount,
      async call(...args: Parameters<MethodDef['call']>) {
        const value = args[0][at];
        if (value === undefined || value === null) {
          throw invalidParams(`missing argument ${at} (${name}): the hosted endpoint requires the block selector of ${method}`);
        }
        return def.call(...args);
      },
    };
  }
  return out;
}

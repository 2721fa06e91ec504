/**
 * `--rpc-revert-code`: how a revert in eth_call / eth_estimateGas reaches the client. -32015 (the default) is
 * the spec's `VM Exception while processing transaction: revert <reason>`; 3 is geth's `execution reverted:
 * <reason>`, the only form viem and other libraries decode (docs/rpc-compatibility.md "Revert errors").
 * `error.data` carries the raw revert data either way.
 */
import { fromHex } from '../chain/bytes.ts';
import { revertReason } from '../chain/revertReason.ts';
import { NodeError } from '../errors.ts';
import { RpcError } from './errors.ts';
import type { Methods } from './method.ts';

export const REVERT_CODES = [-32015, 3] as const;
export type RevertCode = (typeof REVERT_CODES)[number];

/** The methods whose reverts are reported. */
const EXECUTING_METHODS = ['eth_call', 'eth_estimateGas'];

/** A revert (not another VM failure such as running out of gas) as geth words it. */
function gethRevert(err: unknown): RpcError | undefined {
  if (!(err instanceof NodeError) || err.kind !== 'EXECUTION_REVERTED' || !/\b(revert|reverted)\b/.test(err.message)) return undefined;
  const reason = err.data === undefined ? undefined : revertReason(fromHex(err.data));
  return new RpcError(3, reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, err.data);
}

export function withRevertCode(methods: Methods, code: RevertCode): Methods {
  if (code !== 3) return methods;
  const wrapped: Methods = { ...methods };
  for (const name of EXECUTING_METHODS) {
    const inner = methods[name];
    if (!inner) continue;
    wrapped[name] = {
      paramCount: inner.paramCount,
      call: (params) => inner.call(params).catch((err: unknown) => { throw gethRevert(err) ?? err; }),
    };
  }
  return wrapped;
}

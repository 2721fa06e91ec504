/**
 * `--rpc-revert-code`: how a revert in eth_call / eth_estimateGas reaches the client. -32015 (the default) is
 * the reference node's `VM Exception while processing transaction: revert <reason>`; 3 is geth's `execution reverted:
 * <reason>`, the only form viem and other libraries decode (docs/rpc-compatibility.md "Revert errors").
 * `error.data` carries the raw revert data either way.
 */
import { fromHex } from '../chain/codec/bytes.ts';
import { revertReason } from '../chain/execution/revertReason.ts';
import { NodeError } from '../errors.ts';
import { RpcError, toRpcError } from './errors.ts';
import type { Methods } from './method.ts';
import type { RevertCode } from './options.ts';

/** The methods whose reverts are reported. */
const EXECUTING_METHODS = ['eth_call', 'eth_estimateGas'];

/** A revert (not another VM failure such as running out of gas) as geth words it; from a worker it arrives as its wire error. */
function gethRevert(err: unknown): RpcError | undefined {
  const wire = err instanceof RpcError ? err : err instanceof NodeError ? toRpcError(err) : undefined;
  if (wire?.code !== -32015 || !/\b(revert|reverted)\b/.test(wire.message)) return undefined;
  const reason = wire.data === undefined ? undefined : revertReason(fromHex(wire.data));
  return new RpcError(3, reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, wire.data);
}

export function withRevertCode(methods: Methods, code: RevertCode): Methods {
  if (code !== 3) return methods;
  const wrapped: Methods = { ...methods };
  for (const name of EXECUTING_METHODS) {
    const inner = methods[name];
    if (!inner) continue;
    wrapped[name] = {
      paramCount: inner.paramCount,
      call: (params, ctx) => inner.call(params, ctx).catch((err: unknown) => { throw gethRevert(err) ?? err; }),
    };
  }
  return wrapped;
}

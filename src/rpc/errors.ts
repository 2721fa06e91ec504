/**
 * JSON-RPC errors and the single table from domain error kinds to wire codes. Codes follow the
 * reference node where clients may depend on them (docs/rpc-conformance.md "Error codes").
 */
import { AskTimeoutError, MailboxFullError } from '../actors/kernel/index.ts';
import { NodeError, type ErrorKind } from '../errors.ts';
import { logger } from '../log.ts';

const log = logger('rpc');

export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: string) {
    super(message);
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** EIP-1474 "resource not found": outside JSON-RPC 2.0's envelope codes, which describe the request itself (docs/rpc-conformance.md). */
export const RESOURCE_NOT_FOUND = -32001;
/** EIP-1474 "limit exceeded". */
export const LIMIT_EXCEEDED = -32005;
/** The reference's answer to personal_* on a node without a wallet. */
export const WALLET_DISABLED = -32604;

const KIND_CODES: Record<ErrorKind, number> = {
  TX_REJECTED: -32010,
  INVALID_PARAMS: INVALID_PARAMS,
  EXECUTION_REVERTED: -32015,
  // Next to the reference's revert code, so a client reading -32015 as a revert never misreads these (docs/rpc-conformance.md).
  EXECUTION_FAILED: -32016,
  MM_SUBMIT_REJECTED: -33000,
  BLOCK_NOT_FOUND: RESOURCE_NOT_FOUND,
  UNAVAILABLE: INTERNAL_ERROR,
  LIMIT_EXCEEDED: LIMIT_EXCEEDED,
  FILTER_NOT_FOUND: -32000,
};

export const invalidParams = (message: string) => new RpcError(INVALID_PARAMS, message);

/** The wire error for anything a handler threw. Unknown failures are logged, not echoed. */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof NodeError) return new RpcError(KIND_CODES[err.kind], err.message, err.data);
  if (err instanceof AskTimeoutError || err instanceof MailboxFullError) return new RpcError(INTERNAL_ERROR, `node is busy: ${err.message}`);
  log.error({ err }, 'internal error');
  return new RpcError(INTERNAL_ERROR, 'Internal server error');
}

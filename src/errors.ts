/**
 * Domain errors carry a kind; the RPC edge maps each kind to a JSON-RPC code once (src/rpc/errors.ts).
 */
export type ErrorKind =
  | 'TX_REJECTED' //          a transaction refused by the pool (reason in the message)
  | 'INVALID_PARAMS' //       a request value the node cannot use
  | 'EXECUTION_REVERTED' //   eth_call / eth_estimateGas hit REVERT (raw revert data in `data`)
  | 'EXECUTION_FAILED' //     eth_call / eth_estimateGas failed otherwise: out of gas, invalid opcode, … (not a revert)
  | 'MM_SUBMIT_REJECTED' //   a merged-mining submission refused
  | 'BLOCK_NOT_FOUND' //      a block selector names a block this node does not have
  | 'UNAVAILABLE' //          the node cannot serve this right now (no work yet, mining off, …)
  | 'LIMIT_EXCEEDED' //       a request over a size or rate limit (trace size, requests per API key, logs per query)
  | 'FILTER_NOT_FOUND'; //    a filter id that is unknown, expired, uninstalled or dropped (the reason in the message)

export class NodeError extends Error {
  constructor(readonly kind: ErrorKind, message: string, readonly data?: string) {
    super(message);
  }
}

export const txRejected = (reason: string) => new NodeError('TX_REJECTED', reason);

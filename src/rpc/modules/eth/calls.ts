/** eth_call, eth_estimateGas, eth_sendRawTransaction (spec 4.3 'Calls and transactions'); the signing ones are in wallet.ts. */
import type { TypedTransaction } from '@ethereumjs/tx';
import { hex } from '../../../chain/bytes.ts';
import type { CallResult } from '../../../chain/calls.ts';
import { CALL_GAS_CAP } from '../../../chain/calls.ts';
import { decodeTx, TxDecodeError } from '../../../chain/execution.ts';
import { revertReason } from '../../../chain/revertReason.ts';
import { nextGasLimit } from '../../../chain/rules.ts';
import { NodeError, txRejected } from '../../../errors.ts';
import { stateView } from '../../blocks.ts';
import type { RpcDeps } from '../../deps.ts';
import { invalidParams } from '../../errors.ts';
import { method } from '../../method.ts';
import { blockSelector, callArgs, data, LATEST, optional, txArgs } from '../../params.ts';
import { submitTx } from '../../transactions.ts';

/** Largest signed transaction accepted (reference: 128 KiB). */
const MAX_RAW_TX_BYTES = 131_072;

/** The reference's revert error (rpc-methods.md §4.1): -32015, reason decoded from Error(string), raw data in `data`. */
function revertError(result: CallResult): NodeError {
  const reason = revertReason(result.returnValue);
  const text = reason === undefined ? 'transaction reverted' : `revert ${reason}`;
  return new NodeError('EXECUTION_REVERTED', `VM Exception while processing transaction: ${text}`, result.returnValue.length ? hex(result.returnValue) : undefined);
}

const failure = (result: CallResult) =>
  result.error === 'revert' ? revertError(result) : new NodeError('EXECUTION_FAILED', `VM execution failed: ${result.error}`);

export const ethCallMethods = (deps: RpcDeps) => {
  return {
    eth_call: method([['call', callArgs], ['block', optional(blockSelector, LATEST)]], async ([args, sel]) => {
      const { header, calls } = await stateView(deps, sel);
      const gas = args.gas !== undefined && args.gas < CALL_GAS_CAP ? args.gas : CALL_GAS_CAP;
      const result = await calls.call(header, args, gas);
      if (result.error) throw failure(result);
      return hex(result.returnValue);
    }),

    /**
     * The smallest gas limit with which the call succeeds, by binary search; at most the call's gas
     * or else the pending block's gas limit (spec 2.8), which follows from the head's (chain/rules.ts).
     */
    eth_estimateGas: method([['call', txArgs], ['block', optional(blockSelector, LATEST)]], async ([args, sel]) => {
      const { header, calls } = await stateView(deps, sel);
      const cap = args.gas ?? nextGasLimit(deps.reader.network, deps.reader.head().header.gasLimit);
      const atCap = await calls.call(header, args, cap);
      if (atCap.error) {
        if (atCap.error === 'revert') throw revertError(atCap);
        throw new NodeError('EXECUTION_FAILED', `gas required exceeds allowance (${cap}) or always failing transaction: ${atCap.error}`);
      }
      // Usually the gas used suffices; refunds and the 63/64 call rule can need more.
      if (!(await calls.call(header, args, atCap.gasUsed)).error) return `0x${atCap.gasUsed.toString(16)}`;
      let lo = atCap.gasUsed; // fails
      let hi = cap; // succeeds
      while (hi - lo > 1n) {
        const mid = (lo + hi) / 2n;
        if ((await calls.call(header, args, mid)).error) lo = mid;
        else hi = mid;
      }
      return `0x${hi.toString(16)}`;
    }),

    eth_sendRawTransaction: method([['transaction', data]], async ([raw]) => {
      if (raw.length > MAX_RAW_TX_BYTES) throw txRejected(`transaction's size is higher than defined maximum: ${raw.length} > ${MAX_RAW_TX_BYTES}`);
      let tx: TypedTransaction;
      try {
        tx = decodeTx(raw, deps.reader.common);
      } catch (err) {
        if (err instanceof TxDecodeError && err.kind === 'rejected') throw txRejected(err.message);
        throw invalidParams(`Invalid input: ${(err as Error).message}`);
      }
      return submitTx(deps, tx);
    }),
  };
};

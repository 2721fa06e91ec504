/**
 * The transaction topic's validator. A transaction the pool admits is relayed; one it refuses is
 * not, and the refusal's kind says whose fault it is: undecodable bytes or a transaction no state
 * could make valid (bad signature, wrong chain, oversized, gas below its intrinsic cost) → reject
 * and penalise the sender; a refusal that depends on our state or pool (nonce, balance, price,
 * already known, pool full) → ignore.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Common } from '@ethereumjs/common';
import { decodeTx, TxDecodeError } from '../../chain/execution/blockRunner.ts';
import type { PeerEvent } from '../peerEvents.ts';
import type { GossipVerdict, PeerIdStr } from '../types.ts';

export type TxSubmission = { readonly accepted: true } | { readonly accepted: false; readonly peerFault: boolean };

export interface TxGossipDeps {
  readonly common: Common;
  submitTx(tx: TypedTransaction): Promise<TxSubmission>;
  report(peer: PeerIdStr, event: PeerEvent): void;
}

export function txValidator(deps: TxGossipDeps) {
  return async (from: PeerIdStr, data: Uint8Array): Promise<GossipVerdict> => {
    let tx;
    try {
      tx = decodeTx(data, deps.common);
    } catch (err) {
      deps.report(from, err instanceof TxDecodeError && err.kind === 'rejected' ? 'invalidTransactions' : 'invalidMessages');
      return 'reject';
    }
    const submitted = await deps.submitTx(tx);
    if (submitted.accepted) {
      deps.report(from, 'validTransactions');
      return 'accept';
    }
    if (!submitted.peerFault) return 'ignore';
    deps.report(from, 'invalidTransactions');
    return 'reject';
  };
}

/**
 * Pool admission rules (docs/chain.md "Transaction admission"), in the reference's order and with its messages
 * (plus the numbers that make each one actionable). Pure: the pool reads the account and the pool
 * entries it needs and asks `admissionProblem` what, if anything, is wrong. Decoding (chain id,
 * signature, transaction type, EIP-3860 init code size) was checked before, by decodeTx.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { BlockHeader } from '../../chain/codec/header.ts';
import { impersonatedSender } from '../../chain/codec/impersonation.ts';
import { nextMinimumGasPrice } from '../../chain/execution/rules.ts';
import { txBytes } from '../../chain/codec/txEncoding.ts';
import { effectiveGasPrice, maxGasPrice } from '../../chain/execution/txPrice.ts';
import { NodeError } from '../../errors.ts';
import type { TxPoolOptions } from './options.ts';

/** RSKIP252: a gas price above this multiple of the block minimum is refused (when the minimum is not 0). */
export const GAS_PRICE_CAP_FACTOR = 80n;

/** The price a transaction is ranked and checked by: what it pays when mined. */
export const gasPriceOf = effectiveGasPrice;
/** The most a transaction can take from its sender: value plus its whole gas at its highest price. */
export const maxCostOf = (tx: TypedTransaction): bigint => maxGasPrice(tx) * tx.gasLimit + tx.value;

export interface AdmissionFacts {
  readonly tx: TypedTransaction;
  readonly head: BlockHeader;
  readonly account: { readonly nonce: bigint; readonly balance: bigint; readonly hasCode: boolean };
  /** Gas price of the pool transaction with the same sender and nonce, if any. */
  readonly replacing?: bigint;
  /** What the sender's other pool transactions (the replaced one excluded) may cost at most. */
  readonly othersCost: bigint;
}

/**
 * Why the pool refuses a transaction, each kind with whether it is the sender's fault whatever the
 * node's state (true: no chain state or pool could admit it, so a peer gossiping it misbehaves) or
 * depends on this node's view (nonce, balance, prices, pool contents).
 */
export const REFUSAL_IS_PEER_FAULT = {
  known: false, oversized: true, gasLimit: false, senderHasCode: false, nonceTooLow: false, nonceTooHigh: false, insufficientFunds: false,
  underpriced: false, intrinsicGas: true, overpriced: false, replacementUnderpriced: false, poolFull: false,
} as const satisfies Record<string, boolean>;
export type RefusalKind = keyof typeof REFUSAL_IS_PEER_FAULT;

export interface Refusal {
  readonly kind: RefusalKind;
  readonly message: string;
}

/** A refusal as the pool throws it: -32010 at the RPC edge, a gossip verdict on the p2p side. */
export class TxRefusedError extends NodeError {
  constructor(readonly refusal: RefusalKind, message: string) {
    super('TX_REJECTED', message);
  }
  get peerFault(): boolean { return REFUSAL_IS_PEER_FAULT[this.refusal]; }
}

const refuse = (kind: RefusalKind, message: string): Refusal => ({ kind, message });

/** Why the pool refuses this transaction, or undefined if it may enter. */
export function admissionProblem(f: AdmissionFacts, opts: TxPoolOptions): Refusal | undefined {
  const { tx, head, account } = f;
  const size = txBytes(tx).length;
  if (size > opts.maxTxBytes) return refuse('oversized', `transaction's size is higher than defined maximum: ${size} > ${opts.maxTxBytes}`);
  if (tx.gasLimit > head.gasLimit) {
    return refuse('gasLimit', `transaction's gas limit of ${tx.gasLimit} is higher than the block's gas limit of ${head.gasLimit}`);
  }
  // EIP-3607: execution refuses such a sender, so the transaction could never be mined; an impersonated one may send (docs/rpc-compatibility.md "Account impersonation").
  if (account.hasCode && !impersonatedSender(tx)) {
    return refuse('senderHasCode', 'invalid sender: the account holds code, so it cannot send transactions (EIP-3607)');
  }
  if (tx.nonce < account.nonce) return refuse('nonceTooLow', `transaction nonce too low: the account's nonce is ${account.nonce}, the transaction's ${tx.nonce}`);
  if (tx.nonce >= account.nonce + BigInt(opts.accountSlots)) {
    return refuse('nonceTooHigh', `transaction nonce too high: the account's nonce is ${account.nonce}, at most ${opts.accountSlots} ahead may wait`);
  }
  const gasPrice = gasPriceOf(tx);
  const cost = maxCostOf(tx);
  if (account.balance < cost) return refuse('insufficientFunds', `insufficient funds: the sender has ${account.balance} wei, the transaction needs ${cost}`);
  // The next block's minimum, not the head's: a transaction admitted below it could never be mined.
  const floor = nextMinimumGasPrice(head.minimumGasPrice, opts.minGasPriceTarget);
  if (gasPrice < floor) return refuse('underpriced', `transaction's gas price lower than block's minimum: ${gasPrice} < ${floor} (the next block's)`);
  const intrinsic = tx.getIntrinsicGas();
  if (intrinsic > tx.gasLimit) return refuse('intrinsicGas', `transaction's basic cost is above the gas limit: ${intrinsic} > ${tx.gasLimit} (intrinsic gas too low)`);
  const cap = head.minimumGasPrice * GAS_PRICE_CAP_FACTOR;
  if (cap > 0n && gasPrice > cap) return refuse('overpriced', `transaction's gas price exceeds cap: ${gasPrice} > ${cap} (${GAS_PRICE_CAP_FACTOR} × the block's minimum)`);
  // The reference's rule, new ≥ old × 1.4 exactly: so a price of 0 (regtest's default) replaces 0 (docs/rpc-conformance.md).
  if (f.replacing !== undefined && gasPrice * 100n < f.replacing * (100n + opts.priceBumpPercent)) {
    const needed = (f.replacing * (100n + opts.priceBumpPercent) + 99n) / 100n;
    return refuse('replacementUnderpriced', `gas price not enough to bump transaction: ${gasPrice} given, at least ${needed} needed (${opts.priceBumpPercent}% over ${f.replacing})`);
  }
  if (f.othersCost + cost > account.balance) {
    return refuse('insufficientFunds', `insufficient funds to pay for pending and new transactions: the sender has ${account.balance} wei, its pool transactions need ${f.othersCost + cost}`);
  }
  return undefined;
}

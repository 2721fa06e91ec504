/**
 * What a transaction pays per gas on this chain. There is no base fee (the execution header's is 0:
 * docs/rpc-compatibility.md "Gas price"), so an EIP-1559 transaction pays its tip, as the EVM charges
 * it (a tip above the fee cap does not decode); every fee goes to the coinbase. Legacy and EIP-2930
 * transactions pay their gas price.
 */
import type { TypedTransaction } from '@ethereumjs/tx';

interface FeeFields { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }

/** The price per gas the transaction pays when mined: what the block minimum, pool order and receipts use. */
export function effectiveGasPrice(tx: TypedTransaction): bigint {
  const t = tx as unknown as FeeFields;
  return t.maxPriorityFeePerGas ?? t.gasPrice!;
}

/** The most it may pay per gas: the balance must cover its gas at this price (as the EVM checks). */
export function maxGasPrice(tx: TypedTransaction): bigint {
  const t = tx as unknown as FeeFields;
  return t.maxFeePerGas ?? t.gasPrice!;
}

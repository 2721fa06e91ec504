/** Transactions the node builds for its accounts (eth_sendTransaction, personal_sendTransaction) and hands to the pool. */
import { createLegacyTx, type LegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { hex, type Hex } from '../chain/bytes.ts';
import type { RpcDeps } from './deps.ts';
import { invalidParams } from './errors.ts';
import type { TxArgs } from './params.ts';

/** Default gas of a node-built transaction (spec part 8). */
export const DEFAULT_GAS = 90_000n;

/** The pool's verdict: the hash, or -32010 with the reason. */
export async function submitTx(deps: Pick<RpcDeps, 'txpool'>, tx: TypedTransaction): Promise<Hex> {
  return (await deps.txpool.ask('tx.submit', { tx })).hash;
}

/**
 * An unsigned legacy transaction from call-style arguments. Defaults (rpc-methods.md §8): the
 * sender's pending nonce, gas 90,000, the next block's minimum gas price (the pending block's, which
 * admission checks: so it is never refused as underpriced), value 0.
 */
export async function unsignedTx(deps: Pick<RpcDeps, 'reader' | 'txpool' | 'pending'>, args: TxArgs, method: string): Promise<{ from: Hex; tx: LegacyTx }> {
  if (!args.from) throw invalidParams(`invalid argument 0: ${method} needs 'from'`);
  const from = hex(args.from);
  const nonce = args.nonce ?? await deps.txpool.ask('pool.nextNonce', { sender: from });
  const tx = createLegacyTx({
    nonce, to: args.to, value: args.value ?? 0n, data: args.data, gasLimit: args.gas ?? DEFAULT_GAS,
    gasPrice: args.gasPrice ?? (await deps.pending.get()).block.header.minimumGasPrice,
  }, { common: deps.reader.common });
  return { from, tx };
}

/** Transactions the node builds for its accounts (eth_sendTransaction, personal_sendTransaction) and hands to the pool. */
import { createLegacyTx, type LegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { hex, type Hex } from '../chain/codec/bytes.ts';
import type { RpcDeps } from './deps.ts';
import { invalidParams } from './errors.ts';
import type { TxArgs } from './params.ts';

/** Default gas of a node-built transaction. */
export const DEFAULT_GAS = 90_000n;

/**
 * The pool's verdict: the hash once the transaction is in the pool's journal (under automine, when it is
 * alone in the pool, the requests after this answer are held until its block is stored: src/rpc/inclusion.ts);
 * or -32010 with the reason.
 */
export async function submitTx(deps: Pick<RpcDeps, 'txpool' | 'miner' | 'inclusions'>, tx: TypedTransaction): Promise<Hex> {
  const waiting = deps.inclusions?.wait(bytesToHex(tx.hash()) as Hex);
  try {
    const { hash, pending, alone, journaled } = await deps.txpool.ask('tx.submit', { tx });
    await journaled;
    if (waiting && pending && alone && (await deps.miner.ask('mining.status', {})).mode === 'auto') waiting.hold();
    return hash;
  } finally {
    waiting?.release();
  }
}

/**
 * An unsigned legacy transaction from call-style arguments. Defaults (README "Accounts and keystore"): the
 * sender's pending nonce, gas 90,000, the next block's minimum gas price (the pending block's, which
 * admission checks: so it is never refused as underpriced), value 0.
 */
export async function unsignedTx(deps: Pick<RpcDeps, 'reader' | 'txpool' | 'pending'>, args: TxArgs, method: string): Promise<{ from: Hex; tx: LegacyTx }> {
  if (!args.from) throw invalidParams(`missing argument 0 (transaction).from: ${method} needs the account that signs`);
  const from = hex(args.from);
  const nonce = args.nonce ?? await deps.txpool.ask('pool.nextNonce', { sender: from });
  const gasLimit = args.gas ?? DEFAULT_GAS;
  const gasPrice = args.gasPrice ?? deps.pending.minimumGasPrice();
  checkEncodable(nonce, gasLimit, gasPrice);
  const tx = createLegacyTx({ nonce, to: args.to, value: args.value ?? 0n, data: args.data, gasLimit, gasPrice }, { common: deps.reader.common });
  return { from, tx };
}

const ARG = 'invalid argument 0 (transaction)';

/**
 * The bounds a transaction must keep to be built at all (EIP-2681: a nonce below 2^64 - 1; a 64-bit gas
 * limit; gas × gas price within 256 bits, the most a balance can hold): beyond them it is a -32602
 * naming the field, not a failure of the transaction library.
 */
function checkEncodable(nonce: bigint, gas: bigint, gasPrice: bigint): void {
  if (nonce >= 2n ** 64n - 1n) throw invalidParams(`${ARG}.nonce: expected a nonce below 2^64 - 1, got 0x${nonce.toString(16)}`);
  if (gas >= 2n ** 64n) throw invalidParams(`${ARG}.gas: expected a gas limit below 2^64, got 0x${gas.toString(16)}`);
  if (gas * gasPrice >= 2n ** 256n) {
    throw invalidParams(`${ARG}: gas × gasPrice (0x${gas.toString(16)} × 0x${gasPrice.toString(16)}) must be below 2^256`);
  }
}

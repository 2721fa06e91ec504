/**
 * How a sent transaction reaches the pool and what its answer waits for (submitTx; submitTxAndWait for the sync
 * sends), and the transactions the node builds for its accounts (eth_sendTransaction, personal_sendTransaction).
 */
import { createLegacyTx, type LegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { fromHex, hex, type Hex } from '../chain/codec/bytes.ts';
import { findReceipt } from './blocks.ts';
import type { RpcDeps } from './deps.ts';
import { invalidParams, RpcError } from './errors.ts';
import type { TxArgs } from './params.ts';

/** Default gas of a node-built transaction. */
export const DEFAULT_GAS = 90_000n;

/**
 * The pool's verdict: the hash once the transaction is in the pool's journal (under automine, when it is
 * alone in the pool, the requests after this answer are held until its block is stored: src/rpc/inclusion.ts);
 * or -32010 with the reason.
 */
export async function submitTx(deps: Pick<RpcDeps, 'txpool' | 'miner' | 'inclusions'>, tx: TypedTransaction): Promise<Hex> {
  const waiting = deps.inclusions.wait(bytesToHex(tx.hash()) as Hex);
  try {
    const { hash, pending, alone, journaled } = await deps.txpool.ask('tx.submit', { tx });
    await journaled;
    if (pending && alone && (await deps.miner.ask('mining.status', {})).mode === 'auto') waiting.hold();
    return hash;
  } finally {
    waiting.release();
  }
}

/** How long the sync sends wait for a receipt when the client names no time, and the most they wait (docs/rpc-compatibility.md "Sync sends"). */
export const SYNC_WAIT_MS = 5_000;
export const SYNC_WAIT_MAX_MS = 60_000;
/**
 * After its transaction left the pool, how long a sync send still waits for a block: one built from the pool
 * before the transaction left it (a replacement that came while the block was sealed) may still carry it.
 */
const LEFT_GRACE_MS = 250;
/** EIP-7966's codes: the transaction is in the pool but was not mined in time; it cannot be mined as it is. */
const NOT_MINED_IN_TIME = 4;
const NOT_MINEABLE = 5;

/** The wait a sync send asked for: none or 0 is the default, more than the most is the most. */
export const syncWaitMs = (asked: number | undefined): number => (asked ? Math.min(asked, SYNC_WAIT_MAX_MS) : SYNC_WAIT_MS);

const behindGap = (hash: Hex) => new RpcError(NOT_MINEABLE,
  'The transaction was added to the pool but cannot be mined yet: its nonce is above the sender\'s next nonce. Send the missing transactions first', hash);

/**
 * eth_sendRawTransactionSync and eth_sendTransactionSync (EIP-7966): the transaction goes to the pool as with
 * submitTx, and the answer is its receipt once its block is stored. A transaction behind a nonce gap (at once,
 * or when it falls back there) is answered with code 5; one still in the pool after `waitMs` with code 4; one
 * that left the pool unmined (replaced, dropped, invalid when its block was built, a rewind) with code 5. Each
 * carries the hash as data. A client that went away (`signal`) ends the wait.
 */
export async function submitTxAndWait(
  deps: Pick<RpcDeps, 'txpool' | 'reader' | 'inclusions'>, tx: TypedTransaction, waitMs: number, signal?: AbortSignal,
): Promise<unknown> {
  const hash = bytesToHex(tx.hash()) as Hex;
  const waiting = deps.inclusions.wait(hash, waitMs);
  const gone = () => waiting.release();
  signal?.addEventListener('abort', gone);
  let why: Awaited<typeof waiting.ended>;
  try {
    const { pending, journaled } = await deps.txpool.ask('tx.submit', { tx });
    await journaled;
    if (!pending) throw behindGap(hash);
    if (signal?.aborted) gone();
    why = await waiting.ended;
  } finally {
    signal?.removeEventListener('abort', gone);
    waiting.release();
  }
  // Waiting from before the lookup, so that no block slips by between the two.
  const grace = why === 'left' ? deps.inclusions.wait(hash, LEFT_GRACE_MS) : undefined;
  let receipt = await findReceipt(deps.reader, fromHex(hash));
  if (!receipt && grace) {
    await grace.ended;
    receipt = await findReceipt(deps.reader, fromHex(hash));
  }
  grace?.release();
  if (receipt) return receipt;
  if (why === 'queued') throw behindGap(hash);
  if (why === 'left') throw new RpcError(NOT_MINEABLE, 'The transaction left the pool without being mined: replaced, dropped, or invalid when its block was built', hash);
  throw new RpcError(NOT_MINED_IN_TIME, `The transaction was added to the pool but wasn't mined in ${waitMs} ms`, hash);
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

/**
 * The transaction pool owns the pending (executable) and queued (nonce gap) transactions, by
 * sender and nonce. The RPC layer submits decoded transactions; the miner asks for the executable
 * ones in inclusion order; chain.headChanged prunes what the new head included.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Hex } from '../../chain/bytes.ts';
import type { HeadChange } from '../../chain/writer.ts';

export interface PoolTx {
  readonly tx: TypedTransaction;
  readonly hash: Hex;
  readonly sender: Hex;
  readonly nonce: bigint;
  readonly gasPrice: bigint;
  readonly receivedAtMs: number;
}

export type TxPoolProtocol = {
  tell:
    | ({ type: 'chain.headChanged' } & HeadChange)
    | { type: 'tx.dropped'; hashes: Hex[]; reason: string };
  ask: {
    /** Validates and admits a transaction; rejects with NodeError TX_REJECTED and the reason. */
    'tx.submit': { req: { tx: TypedTransaction }; res: { hash: Hex; pending: boolean } };
    /** Executable transactions, nonce order per sender, highest gas price first across senders. */
    'pool.executable': { req: { maxGas: bigint }; res: TypedTransaction[] };
    /** Next nonce for a sender counting its pending transactions. */
    'pool.nextNonce': { req: { sender: Hex }; res: bigint };
    'pool.get': { req: { hash: Hex }; res: PoolTx | undefined };
    'pool.list': { req: {}; res: { pending: PoolTx[]; queued: PoolTx[] } };
  };
};

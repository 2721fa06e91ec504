/**
 * The transaction pool owns the pending (executable) and queued (nonce gap) transactions, by
 * sender and nonce, and one lifecycle machine per transaction (src/machines/transaction.machine.ts),
 * including those of recently mined transactions so a reorg can return them. The RPC layer submits
 * decoded transactions and reads the pool; the miner asks for the executable ones in inclusion
 * order and reports transactions a block could not include; chain.headChanged tells it what the
 * chain included, retracted or rewound. It publishes pool.txAdded and pool.txRemoved on the bus.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { EventFromLogic } from 'xstate';
import type { Hex } from '../../chain/codec/bytes.ts';
import type { HeadChange } from '../../chain/writer.ts';
import type { MachineRun } from '../../machines/snapshotRun.ts';
import type { transactionMachine } from '../../machines/transaction.machine.ts';

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
    /** From the miner: transactions a block build refused (no longer valid). */
    | { type: 'tx.dropped'; hashes: Hex[]; reason: string }
    /** A transaction's machine reached its age limit: `event` is the machine's own delayed event, which the pool sends it. */
    | { type: 'tx.aged'; machine: MachineRun<typeof transactionMachine>; event: EventFromLogic<typeof transactionMachine> };
  ask: {
    /**
     * Validates and admits a transaction; rejects with NodeError TX_REJECTED and the reason.
     * `journaled` resolves once it is written to the journal (src/actors/txpool/journal.ts); `alone`:
     * it is the only transaction in the pool (under automine the next block carries it alone).
     */
    'tx.submit': { req: { tx: TypedTransaction }; res: { hash: Hex; pending: boolean; alone: boolean; journaled?: Promise<void> } };
    /** Executable transactions, nonce order per sender, highest gas price first across senders. */
    'pool.executable': { req: { maxGas: bigint }; res: TypedTransaction[] };
    /** Next nonce for a sender counting its pending transactions. */
    'pool.nextNonce': { req: { sender: Hex }; res: bigint };
    /** A pending or queued transaction. */
    'pool.get': { req: { hash: Hex }; res: PoolTx | undefined };
    'pool.list': { req: {}; res: { pending: PoolTx[]; queued: PoolTx[] } };
    /**
     * Answers once every message sent before it is handled: after a rewind (evm_revert, evm_reset) the
     * pool, its journal included, no longer holds the transactions the rewind dropped.
     */
    'pool.sync': { req: {}; res: null };
    /** hardhat_dropTransaction: takes a pending or queued transaction out; false when the pool does not hold it. */
    'pool.discard': { req: { hash: Hex }; res: boolean };
  };
};

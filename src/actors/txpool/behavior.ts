/** Pool rules (node-behaviour.md §4): validation order, messages, pending vs queued, replacement bump. */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex } from '@ethereumjs/util';
import type { Hex } from '../../chain/bytes.ts';
import type { ChainReader } from '../../chain/reader.ts';
import { txRejected } from '../../errors.ts';
import type { Behavior, EventBus } from '../kernel/index.ts';
import type { NodeEvent } from '../events.ts';
import type { PoolTx, TxPoolProtocol } from './protocol.ts';

export interface TxPoolOptions {
  /** Largest accepted transaction (reference: 128 KiB). */
  maxTxBytes: number;
  /** How far past the account nonce a transaction may be queued (reference `accountSlots`). */
  accountSlots: number;
  /** Total transactions held; past it a new one is refused. */
  maxTxs: number;
  /** Replacement needs a gas price at least this much higher, in percent (reference 40). */
  priceBumpPercent: bigint;
}

export const DEFAULT_TXPOOL_OPTIONS: TxPoolOptions = { maxTxBytes: 131_072, accountSlots: 64, maxTxs: 20_000, priceBumpPercent: 40n };

interface PoolState {
  readonly byHash: Map<Hex, PoolTx>;
  readonly bySender: Map<Hex, Map<bigint, PoolTx>>;
}

const gasPriceOf = (tx: TypedTransaction): bigint => (tx as unknown as { gasPrice: bigint }).gasPrice;

export function txPoolBehavior(reader: ChainReader, bus: EventBus<NodeEvent>, opts: TxPoolOptions = DEFAULT_TXPOOL_OPTIONS): Behavior<TxPoolProtocol, PoolState> {
  const account = (sender: Hex) => reader.stateAt(reader.head().header.stateRoot).getAccount(new Address(Buffer.from(sender.slice(2), 'hex')));

  const remove = (s: PoolState, p: PoolTx) => {
    s.byHash.delete(p.hash);
    const bySender = s.bySender.get(p.sender);
    bySender?.delete(p.nonce);
    if (bySender?.size === 0) s.bySender.delete(p.sender);
  };

  /** First nonce at or after `stateNonce` that has no transaction in the pool. */
  const pendingNonce = (s: PoolState, sender: Hex, stateNonce: bigint) => {
    const txs = s.bySender.get(sender);
    let n = stateNonce;
    while (txs?.has(n)) n++;
    return n;
  };

  async function admit(s: PoolState, tx: TypedTransaction): Promise<{ hash: Hex; pending: boolean }> {
    const hash = bytesToHex(tx.hash()) as Hex;
    const known = s.byHash.get(hash);
    if (known) {
      const stateNonce = (await account(known.sender))?.nonce ?? 0n;
      const where = known.nonce < pendingNonce(s, known.sender, stateNonce) ? 'pending' : 'queued';
      throw txRejected(`${where} transaction with same hash already exists`);
    }
    const size = tx.serialize().length;
    if (size > opts.maxTxBytes) throw txRejected(`transaction's size is higher than defined maximum: ${size} > ${opts.maxTxBytes}`);
    const head = reader.head().header;
    if (tx.gasLimit > head.gasLimit) {
      throw txRejected(`transaction's gas limit of ${tx.gasLimit} is higher than the block's gas limit of ${head.gasLimit}`);
    }
    const sender = bytesToHex(tx.getSenderAddress().bytes) as Hex;
    const acct = await account(sender);
    const stateNonce = acct?.nonce ?? 0n;
    if (tx.nonce < stateNonce) throw txRejected(`transaction nonce too low: the account's nonce is ${stateNonce}, the transaction's ${tx.nonce}`);
    if (tx.nonce >= stateNonce + BigInt(opts.accountSlots)) {
      throw txRejected(`transaction nonce too high: the account's nonce is ${stateNonce}, at most ${opts.accountSlots} ahead may wait`);
    }
    const gasPrice = gasPriceOf(tx);
    const cost = gasPrice * tx.gasLimit + tx.value;
    const balance = acct?.balance ?? 0n;
    if (balance < cost) throw txRejected(`insufficient funds: the sender has ${balance} wei, the transaction needs ${cost}`);
    if (gasPrice < head.minimumGasPrice) {
      throw txRejected(`transaction's gas price lower than block's minimum: ${gasPrice} < ${head.minimumGasPrice}`);
    }
    const intrinsic = tx.getIntrinsicGas();
    if (intrinsic > tx.gasLimit) throw txRejected(`transaction's basic cost is above the gas limit: ${intrinsic} > ${tx.gasLimit} (intrinsic gas too low)`);
    const existing = s.bySender.get(sender)?.get(tx.nonce);
    if (existing) {
      const needed = (existing.gasPrice * (100n + opts.priceBumpPercent)) / 100n;
      if (gasPrice <= existing.gasPrice || gasPrice < needed) {
        throw txRejected(`gas price not enough to bump transaction: ${gasPrice} given, at least ${needed} needed to replace ${existing.hash}`);
      }
      remove(s, existing);
    } else if (s.byHash.size >= opts.maxTxs) {
      throw txRejected(`transaction pool is full (${opts.maxTxs} transactions)`);
    }
    const entry: PoolTx = Object.freeze({ tx, hash, sender, nonce: tx.nonce, gasPrice, receivedAtMs: Date.now() });
    s.byHash.set(hash, entry);
    let bySender = s.bySender.get(sender);
    if (!bySender) s.bySender.set(sender, (bySender = new Map()));
    bySender.set(tx.nonce, entry);
    const pending = tx.nonce < pendingNonce(s, sender, stateNonce);
    bus.publish({ type: 'pool.txAdded', tx, pending });
    return { hash, pending };
  }

  async function executable(s: PoolState, maxGas: bigint): Promise<TypedTransaction[]> {
    // Per sender, the contiguous run of nonces from its account nonce.
    const runs: PoolTx[][] = [];
    for (const [sender, txs] of s.bySender) {
      let n = (await account(sender))?.nonce ?? 0n;
      const run: PoolTx[] = [];
      for (let p = txs.get(n); p; p = txs.get(++n)) run.push(p);
      if (run.length) runs.push(run);
    }
    // Merge: always take the highest-priced next transaction among senders (nonce order kept per sender).
    const out: TypedTransaction[] = [];
    let gas = 0n;
    const cursors = runs.map(() => 0);
    for (;;) {
      let best = -1;
      for (let i = 0; i < runs.length; i++) {
        const next = runs[i]![cursors[i]!];
        if (next && (best < 0 || next.gasPrice > runs[best]![cursors[best]!]!.gasPrice)) best = i;
      }
      if (best < 0) break;
      const p = runs[best]![cursors[best]!++]!;
      if (gas + p.tx.gasLimit > maxGas) { cursors[best] = runs[best]!.length; continue; }
      gas += p.tx.gasLimit;
      out.push(p.tx);
    }
    return out;
  }

  async function pruneIncluded(s: PoolState): Promise<void> {
    for (const [sender, txs] of [...s.bySender]) {
      const nonce = (await account(sender))?.nonce ?? 0n;
      for (const p of [...txs.values()]) if (p.nonce < nonce) remove(s, p);
    }
  }

  return {
    init: () => ({ byHash: new Map(), bySender: new Map() }),
    async onTell(s, msg) {
      if (msg.type === 'chain.headChanged') {
        await pruneIncluded(s);
        // Transactions of blocks that left the canonical chain go back to the pool.
        for (const block of msg.removed) for (const tx of block.txs) await admit(s, tx).catch(() => {});
      } else {
        for (const hash of msg.hashes) {
          const p = s.byHash.get(hash);
          if (p) remove(s, p);
        }
      }
      return s;
    },
    onAsk: {
      'tx.submit': async (s, { tx }) => [s, await admit(s, tx)],
      'pool.executable': async (s, { maxGas }) => [s, await executable(s, maxGas)],
      'pool.nextNonce': async (s, { sender }) => [s, pendingNonce(s, sender, (await account(sender))?.nonce ?? 0n)],
      'pool.get': (s, { hash }) => [s, s.byHash.get(hash)],
      'pool.list': async (s) => {
        const pending: PoolTx[] = [];
        const queued: PoolTx[] = [];
        for (const [sender, txs] of s.bySender) {
          const next = pendingNonce(s, sender, (await account(sender))?.nonce ?? 0n);
          for (const p of txs.values()) (p.nonce < next ? pending : queued).push(p);
        }
        return [s, { pending, queued }];
      },
    },
  };
}

/**
 * The pool's index of live (pending or queued) transactions: by hash and by sender and nonce.
 * It holds no rules; the pool behavior decides what enters and leaves.
 */
import type { Hex } from '../../chain/codec/bytes.ts';
import { maxCostOf } from './rules.ts';
import type { PoolTx } from './protocol.ts';

export class PoolBook<E extends { readonly data: PoolTx }> {
  readonly #byHash = new Map<Hex, E>();
  readonly #bySender = new Map<Hex, Map<bigint, E>>();
  /** Per sender, what its transactions may cost at most in all (kept as they come and go). */
  readonly #costs = new Map<Hex, bigint>();

  get size(): number {
    return this.#byHash.size;
  }

  get(hash: Hex): E | undefined {
    return this.#byHash.get(hash);
  }

  at(sender: Hex, nonce: bigint): E | undefined {
    return this.#bySender.get(sender)?.get(nonce);
  }

  entries(): IterableIterator<E> {
    return this.#byHash.values();
  }

  /** A sender's entries (any nonce order). */
  ofSender(sender: Hex): E[] {
    return [...(this.#bySender.get(sender)?.values() ?? [])];
  }

  senders(): IterableIterator<Hex> {
    return this.#bySender.keys();
  }

  add(e: E): void {
    this.#byHash.set(e.data.hash, e);
    let txs = this.#bySender.get(e.data.sender);
    if (!txs) this.#bySender.set(e.data.sender, (txs = new Map()));
    txs.set(e.data.nonce, e);
    this.#costs.set(e.data.sender, (this.#costs.get(e.data.sender) ?? 0n) + maxCostOf(e.data.tx));
  }

  remove(e: E): void {
    this.#byHash.delete(e.data.hash);
    const txs = this.#bySender.get(e.data.sender);
    if (!txs?.delete(e.data.nonce)) return;
    this.#costs.set(e.data.sender, this.#costs.get(e.data.sender)! - maxCostOf(e.data.tx));
    if (txs.size === 0) {
      this.#bySender.delete(e.data.sender);
      this.#costs.delete(e.data.sender);
    }
  }

  /** First nonce at or after `from` that the sender has no transaction for. */
  firstGap(sender: Hex, from: bigint): bigint {
    const txs = this.#bySender.get(sender);
    let n = from;
    while (txs?.has(n)) n++;
    return n;
  }

  /** What the sender's transactions may cost at most, leaving out the one at `exceptNonce`. */
  senderCost(sender: Hex, exceptNonce: bigint): bigint {
    const except = this.at(sender, exceptNonce);
    return (this.#costs.get(sender) ?? 0n) - (except ? maxCostOf(except.data.tx) : 0n);
  }

  /**
   * The eviction candidate: among each sender's highest-nonce transaction (dropping it opens no
   * nonce gap), the one with the lowest gas price, the latest arrival on a tie.
   */
  cheapestTail(): E | undefined {
    let victim: E | undefined;
    for (const txs of this.#bySender.values()) {
      let tail: E | undefined;
      for (const e of txs.values()) if (!tail || e.data.nonce > tail.data.nonce) tail = e;
      if (!tail) continue;
      const better = !victim || tail.data.gasPrice < victim.data.gasPrice
        || (tail.data.gasPrice === victim.data.gasPrice && tail.data.receivedAtMs > victim.data.receivedAtMs);
      if (better) victim = tail;
    }
    return victim;
  }
}

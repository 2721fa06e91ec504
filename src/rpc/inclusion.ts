/**
 * Under automine a transaction sent into an empty pool (a test suite's send, then its receipt, then
 * the next send) is answered as soon as the pool has it, and every request that comes after that answer
 * is held until its block is stored: the client's first eth_getTransactionReceipt finds the receipt, and
 * whatever it reads next sees the block, as after a Hardhat send (docs/performance.md, "What was cut").
 * Sends that join others (a burst from many senders) hold nothing, so their blocks stay full. A
 * transaction the next block will not take (queued behind a nonce gap, mining in another mode) holds
 * nothing either; one that leaves the pool unmined, or waits longer than a bound, lets the held requests go then.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { NodeEvent } from '../actors/events.ts';
import type { ActorRef } from '../actors/kernel/index.ts';
import type { Block } from '../chain/codec/block.ts';
import type { Hex } from '../chain/codec/bytes.ts';

/** Longest the requests after a send are held for its block (a price the next block refuses keeps it pending). */
export const INCLUSION_WAIT_MS = 5_000;

type InclusionEvent = { type: 'mined'; blocks: readonly Block[] } | { type: 'left' | 'queued'; hash: Hex };

/** Why a wait ended: its transaction was mined, left the pool unmined, fell back to queued; the bound passed; or it was released. */
export type WaitEnd = 'mined' | 'left' | 'queued' | 'timeout' | 'released';

export type InclusionProtocol = { tell: InclusionEvent; ask: Record<never, never> };

/** The bus events that end a wait: blocks joining the chain, a transaction leaving the pool unmined or falling back to queued. */
export function inclusionEvent(e: NodeEvent): InclusionEvent | undefined {
  if (e.type === 'chain.headChanged' && e.added.length) {
    return { type: 'mined', blocks: e.added };
  }
  if (e.type === 'pool.txLeft') return { type: 'left', hash: e.hash };
  if (e.type === 'pool.txRemoved' && e.queued) return { type: 'queued', hash: e.hash };
  return undefined;
}

export class InclusionWaits {
  /** The ends of the waits under way, by transaction hash (a transaction sent twice is waited for twice). */
  readonly #waiting = new Map<Hex, Set<(why: WaitEnd) => void>>();
  /** The waits of answered sends: requests that come after them are held until these end. */
  readonly #holding = new Set<Promise<WaitEnd>>();

  /**
   * The bus subscriber. Its `tell` only settles promises: what waited goes on in later microtasks,
   * never inside the publishing actor's handler.
   */
  readonly ref: ActorRef<InclusionProtocol> = {
    name: 'inclusion waits',
    tell: (e) => {
      if (this.#waiting.size === 0) return;
      if (e.type !== 'mined') return this.#end(e.hash, e.type);
      for (const block of e.blocks) for (const tx of block.txs) this.#end(bytesToHex(tx.hash()) as Hex, 'mined');
    },
    ask: () => Promise.reject(new Error('inclusion waits answer no asks')),
  };

  /** Settles once every wait that holds requests has ended; undefined when none holds them. */
  settled(): Promise<void> | undefined {
    return this.#holding.size ? Promise.all(this.#holding).then(() => undefined) : undefined;
  }

  /**
   * Starts waiting for `hash` (before the pool sees it, so no block can slip by unseen). The wait ends
   * once it is mined, leaves the pool, falls back to queued, or `timeoutMs` passed; `ended` settles then with
   * why. `hold` makes the requests that come from now on wait for that end; `release` ends a wait that holds
   * nothing at once.
   */
  wait(hash: Hex, timeoutMs = INCLUSION_WAIT_MS): { hold: () => void; release: () => void; ended: Promise<WaitEnd> } {
    let end!: (why: WaitEnd) => void;
    const ended = new Promise<WaitEnd>((resolve) => {
      const timer = setTimeout(() => end('timeout'), timeoutMs);
      end = (why) => {
        clearTimeout(timer);
        const ends = this.#waiting.get(hash);
        ends?.delete(end);
        if (ends?.size === 0) this.#waiting.delete(hash);
        this.#holding.delete(ended);
        resolve(why);
      };
    });
    const ends = this.#waiting.get(hash) ?? new Set();
    ends.add(end);
    this.#waiting.set(hash, ends);
    return {
      // Only a wait still under way holds: a block stored before the answer was ready (the miner was busy) leaves nothing to hold.
      hold: () => { if (this.#waiting.get(hash)?.has(end)) this.#holding.add(ended); },
      release: () => { if (!this.#holding.has(ended)) end('released'); },
      ended,
    };
  }

  #end(hash: Hex, why: WaitEnd): void {
    for (const end of this.#waiting.get(hash) ?? []) end(why);
  }
}

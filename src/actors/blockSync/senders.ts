/**
 * Sender recovery ahead of import (docs/network.md "Block sync"): while the chain actor executes one
 * batch, a worker thread recovers the senders of the next batches' transactions (secp256k1
 * recovery, a fifth of a transfer's import); each transaction keeps the result in
 * @ethereumjs/tx's own cache, where execution, the indexes and the pool look first. Nothing is
 * trusted that the main thread would not compute the same way: the worker decodes the very bytes the
 * transaction was decoded from and runs the same recovery (signature checks included); a
 * transaction it could not recover is left alone, so execution recovers it and refuses the block.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Worker } from 'node:worker_threads';
import type { Block } from '../../chain/codec/block.ts';
import { txBytes } from '../../chain/codec/txEncoding.ts';
import type { ChainIdentity } from '../../chain/execution/common.ts';
import { logger } from '../../log.ts';
import { workerResourceLimits } from '../../threads.ts';

const log = logger('sync');

/**
 * The worker's workerData: the network's name and chain id, all its Common needs. (networks.ts derives
 * the development accounts' addresses when it loads, 40 % of the worker's start.)
 */
export interface SenderWorkerInit { readonly network: ChainIdentity }
/** Transactions' bytes end to end, `ends[i]` where the i-th ends. */
export interface ToSenderWorker { readonly id: number; readonly txs: Uint8Array; readonly ends: Uint32Array }
/** Per transaction: `ok[i]` 1 when recovered, its 64-byte public key at i × 64. */
export type FromSenderWorker = { readonly ready: true } | { readonly id: number; readonly ok: Uint8Array; readonly keys: Uint8Array };

/** The worker's own entry: beside this module, or in the bundle's folder (testnet/bundle.ts builds dist/senderWorker.mjs with dist/main.mjs). */
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './senderWorker.ts' : './senderWorker.mjs', import.meta.url);

/** What @ethereumjs/tx caches on a frozen transaction (capabilities/legacy.ts: getSenderPublicKey). */
type TxCache = { senderPubKey?: Uint8Array };
const unrecovered = (txs: readonly TypedTransaction[]) => txs.filter((tx) => (tx as unknown as { cache: TxCache }).cache.senderPubKey === undefined);

export class SenderRecovery {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { txs: readonly TypedTransaction[]; done: () => void }>();
  #nextId = 0;
  #ready = false;
  /** Resolves true once the worker serves, false if it failed or was closed first. */
  readonly ready: Promise<boolean>;

  constructor(network: ChainIdentity) {
    const init: SenderWorkerInit = { network: { name: network.name, chainId: network.chainId } };
    this.#worker = new Worker(ENTRY, { workerData: init, resourceLimits: workerResourceLimits() });
    this.#worker.unref();
    let started: (ok: boolean) => void;
    this.ready = new Promise((r) => { started = r; });
    this.#worker.on('message', (msg: FromSenderWorker) => {
      if ('ready' in msg) { this.#ready = true; return started(true); }
      const job = this.#waiting.get(msg.id);
      this.#waiting.delete(msg.id);
      job?.txs.forEach((tx, i) => {
        if (!msg.ok[i]) return;
        const cache = (tx as unknown as { cache: TxCache }).cache;
        cache.senderPubKey ??= msg.keys.subarray(i * 64, i * 64 + 64);
      });
      job?.done();
    });
    const fail = (err?: unknown) => {
      if (err) log.warn({ err }, 'sender recovery worker failed; the chain recovers senders itself');
      this.#ready = false;
      started(false);
      for (const job of this.#waiting.values()) job.done();
      this.#waiting.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', () => fail());
  }

  /**
   * Recovers the senders of the blocks' transactions in the worker; resolves once each transaction
   * holds its sender. While the worker starts it resolves at once, and the transactions go to the
   * worker once it serves (those execution has not recovered by then); after a failure or close()
   * it resolves at once. Never rejects: what is not recovered here is recovered by execution.
   */
  prime(blocks: readonly Pick<Block, 'txs'>[]): Promise<void> {
    const txs = unrecovered(blocks.flatMap((b) => b.txs));
    if (txs.length === 0) return Promise.resolve();
    if (!this.#ready) {
      void this.ready.then((serves) => { if (serves) void this.#recover(unrecovered(txs)); });
      return Promise.resolve();
    }
    return this.#recover(txs);
  }

  #recover(txs: readonly TypedTransaction[]): Promise<void> {
    if (txs.length === 0) return Promise.resolve();
    const raws = txs.map(txBytes);
    const ends = new Uint32Array(raws.length);
    const bytes = new Uint8Array(raws.reduce((n, r) => n + r.length, 0));
    let at = 0;
    raws.forEach((raw, i) => { bytes.set(raw, at); ends[i] = at += raw.length; });
    const id = this.#nextId++;
    return new Promise((done) => {
      this.#waiting.set(id, { txs, done });
      this.#worker.postMessage({ id, txs: bytes, ends } satisfies ToSenderWorker, [bytes.buffer, ends.buffer]);
    });
  }

  /** Stops the worker (it holds nothing to close); what waits resolves unprimed. */
  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}

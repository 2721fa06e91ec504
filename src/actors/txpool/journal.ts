/**
 * The pool's journal (docs/hardening.md "Transaction journal"): each transaction the pool takes in is
 * appended to `<data dir>/txpool.journal` as one line of hex, and each one it drops unmined (expired,
 * evicted, replaced, cleared) as `-<hash>`; the lines of one event-loop turn go in one write, so a
 * transaction whose hash was answered survives a kill -9 (the write reached the kernel before the answer
 * left). At start the pool admits the journal's live transactions again (mined ones fail on their nonce).
 * The file is rewritten with only the live ones once its other lines outnumber them: it holds at most
 * about twice the pool's transactions.
 */
import { bytesToHex } from '@ethereumjs/util';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, writeFileSync, writeSync } from 'node:fs';

import { keccak256 } from '../../chain/codec/keccak.ts';
import { logger } from '../../log.ts';

const log = logger('txpool');

/** Below this many dead lines the journal is not rewritten (a rewrite of a tiny file is not worth a syscall). */
const COMPACT_MIN_DEAD = 1_000;

export class TxJournal {
  #fd: number | undefined;
  #waiting: string[] = [];
  #written: Promise<void> | undefined;
  /** Lines in the file, live or dead. */
  #lines = 0;

  constructor(readonly path: string) {}

  /** The transactions the file holds and did not drop, oldest first; a line torn by a crash is skipped. */
  read(): Uint8Array[] {
    if (!existsSync(this.path)) return [];
    const live = new Map<string, Uint8Array>();
    for (const line of readFileSync(this.path, 'latin1').split('\n')) {
      if (/^-0x[0-9a-f]{64}$/.test(line)) live.delete(line.slice(1));
      else if (/^([0-9a-f]{2})+$/.test(line)) {
        const raw = Buffer.from(line, 'hex');
        live.set(bytesToHex(keccak256(raw)), raw);
      }
    }
    return [...live.values()];
  }

  /** Queues a transaction for the next write; resolves once it is written (with the others of this turn). */
  append(raw: Uint8Array): Promise<void> {
    return this.#queue(`${Buffer.from(raw).toString('hex')}\n`);
  }

  /** Notes that the transaction `hash` left the pool unmined (it is not to come back at start). */
  forget(hash: string): void {
    void this.#queue(`-${hash}\n`);
  }

  /** Settles once the lines queued so far are written. */
  written(): Promise<void> {
    return this.#written ?? Promise.resolve();
  }

  #queue(line: string): Promise<void> {
    this.#waiting.push(line);
    this.#written ??= new Promise((resolve) => setImmediate(() => {
      this.#flush();
      resolve();
    }));
    return this.#written;
  }

  /** Rewrites the file with `live` when dead lines outnumber them (and are at least COMPACT_MIN_DEAD). */
  compact(live: () => Uint8Array[], liveCount: number): void {
    const dead = this.#lines + this.#waiting.length - liveCount;
    if (dead >= COMPACT_MIN_DEAD && dead > liveCount) this.rewrite(live());
  }

  /**
   * Empties the file (the pool was discarded: a rewind). A truncation cannot be torn, so unlike a rewrite it
   * needs no temporary file and no fsync: like an append, it survives a kill -9 once it returns.
   */
  clear(): void {
    this.#waiting = [];
    this.#close();
    if (existsSync(this.path)) truncateSync(this.path);
    this.#lines = 0;
  }

  /** Replaces the file with exactly `live` (written to a temporary file, then renamed over it). */
  rewrite(live: readonly Uint8Array[]): void {
    this.#waiting = [];
    this.#close();
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, live.map((raw) => `${Buffer.from(raw).toString('hex')}\n`).join(''));
    const fd = openSync(tmp, 'r');
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.path);
    this.#lines = live.length;
  }

  close(): void {
    this.#flush();
    this.#close();
  }

  #flush(): void {
    this.#written = undefined;
    if (this.#waiting.length === 0) return;
    const text = this.#waiting.join('');
    const count = this.#waiting.length;
    this.#waiting = [];
    try {
      this.#fd ??= openSync(this.path, 'a');
      writeSync(this.#fd, text);
      this.#lines += count;
    } catch (err) {
      // The transactions stay in the pool; only their survival of a crash is lost.
      log.error({ path: this.path, err: (err as Error).message }, 'could not write the pool journal');
    }
  }

  #close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

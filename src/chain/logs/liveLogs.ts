/**
 * What a head change brings to a live log filter or subscription: the matching logs of the blocks
 * that left the canonical chain (removed, newest first: the order to undo them in), then those of
 * the blocks that joined it, oldest first. Each block's bloom is checked before its receipts are read.
 * The node has one source, shared by the polling filters and the WebSocket subscriptions: a new
 * block's logs are read and decoded once for both.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Block, StoredReceipt } from '../codec/block.ts';
import { blockLogEntries, bloomMayMatch, matchesLog, type LogCriteria, type LogEntry } from './logFilter.ts';
import { Lru } from '../storage/lru.ts';
import type { BlockTag } from '../blockTags.ts';

/** Where the receipts of a block come from (the chain view). */
export interface ReceiptSource {
  getReceipts(blockHash: Uint8Array): Promise<readonly StoredReceipt[] | undefined>;
}

export interface LiveLog {
  readonly log: LogEntry;
  readonly removed: boolean;
}

/** Numeric block bounds of a live filter (a tag bounds nothing: `latest` follows the head). */
export interface BlockBounds {
  readonly from?: bigint;
  readonly to?: bigint;
}

/** One end of a filter's block range: a number, or a tag read against the head of the moment. */
export type RangeEnd = { readonly kind: 'tag'; readonly tag: BlockTag } | { readonly kind: 'number'; readonly number: bigint };

export interface BlockRange {
  readonly kind: 'range';
  readonly from: RangeEnd;
  readonly to: RangeEnd;
}

/** A log filter that follows new blocks (eth_newFilter, a `logs` subscription): what to match, and where. */
export interface LiveLogFilter {
  readonly criteria: LogCriteria;
  readonly scope: BlockRange;
}

/** The numeric bounds a live filter applies to new blocks. */
export const boundsOf = (r: BlockRange): BlockBounds => ({
  from: r.from.kind === 'number' ? r.from.number : undefined,
  to: r.to.kind === 'number' ? r.to.number : undefined,
});

/** Blocks whose logs are remembered; an evm_revert deeper than this reports no removed logs for the older blocks. */
const RECENT_BLOCKS = 256;

export class LiveLogSource {
  /**
   * The logs of blocks read lately. A rewind (evm_revert) deletes its blocks with their receipts,
   * but a log a filter was given came from a block read here, so its removal can still be reported.
   */
  readonly #recent = new Lru<string, Promise<LogEntry[]>>(RECENT_BLOCKS);

  constructor(private readonly reader: ReceiptSource) {}

  /** A block's logs; concurrent askers (filters and subscriptions of the same head change) share one read. */
  #logsOf(block: Block): Promise<LogEntry[]> {
    const key = bytesToHex(block.hash);
    let logs = this.#recent.get(key);
    if (!logs) {
      logs = this.reader.getReceipts(block.hash).then((receipts) => {
        if (!receipts) this.#recent.delete(key); // not stored (yet or any more): not remembered
        return receipts ? blockLogEntries(block, receipts) : [];
      });
      logs.catch(() => this.#recent.delete(key));
      this.#recent.set(key, logs);
    }
    return logs;
  }

  async changes(
    change: { readonly added: readonly Block[]; readonly removed: readonly Block[] },
    criteria: LogCriteria,
    bounds: BlockBounds = {},
  ): Promise<LiveLog[]> {
    const out: LiveLog[] = [];
    const inBounds = (n: bigint) => (bounds.from === undefined || n >= bounds.from) && (bounds.to === undefined || n <= bounds.to);
    const matching = async (block: Block) => {
      if (!inBounds(block.header.number) || !bloomMayMatch(block.header.logsBloom, criteria)) return [];
      return (await this.#logsOf(block)).filter((l) => matchesLog(criteria, l.address, l.topics));
    };
    for (const block of change.removed) {
      for (const log of (await matching(block)).reverse()) out.push({ log, removed: true });
    }
    for (const block of change.added) {
      for (const log of await matching(block)) out.push({ log, removed: false });
    }
    return out;
  }
}

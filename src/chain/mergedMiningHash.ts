/**
 * hashForMergedMining of a header on this chain (docs/merged-mining.md "hashForMergedMining"): the base hash of its 17
 * fields, with fork-detection data from its ancestry from height 449 on. A header on the head (every
 * block the miner builds, every block of a sync) reads the same heights again and again: the
 * fork-detection hashes of canonical blocks and the uncle counts of the head's last 32 ancestors are
 * cached, and the writer says when the head moves or canonical blocks are replaced.
 */
import { equalsBytes } from '@ethereumjs/util';
import { applyForkDetection, dsha256, forkDetectionData } from '../mergedmining/index.ts';
import type { Block } from './codec/block.ts';
import { mergedMiningBaseHash, type BlockHeader } from './codec/header.ts';
import type { ChainReader, HeadInfo } from './reader.ts';
import { Lru } from './storage/lru.ts';

/** Height from which hashForMergedMining carries fork-detection data (docs/merged-mining.md "hashForMergedMining"). */
const FORK_DETECTION_FROM = 449n;
const CPV_SPAN = 64n;
/** Ancestors whose uncle counts fork detection sums. */
const UNCLE_COUNT_WINDOW = 32;

/** What fork detection records of an ancestor: the double SHA-256 of its parent-chain header. */
const parentChainHash = (h: BlockHeader | undefined) => h && dsha256(h.parentChainHeader);

/** The writer's blocks imported on the head and not yet written. */
export interface PendingHead {
  /** The head, counting the pending blocks. */
  tip(): HeadInfo;
  /** A pending canonical block by number. */
  pendingBlock(number: bigint): Block | undefined;
  /** Writes the pending blocks. */
  flush(): Promise<void>;
}

export class MergedMiningHasher {
  /** Fork-detection hashes of canonical blocks by height: every block on the head reads the same seven heights. */
  readonly #canonicalForkHashes = new Lru<bigint, Uint8Array>(16);
  /**
   * The fork-detection hashes a block on the head reads, with the height their window starts at: the same
   * for the 64 blocks after it, so a sync or the miner reads them once per 64 blocks.
   */
  #headWindow: { readonly start: bigint; readonly hashes: ReadonlyMap<bigint, Uint8Array> } | undefined;
  /** Uncle counts of the head and its ancestors (newest first, UNCLE_COUNT_WINDOW at most). */
  #headUncleCounts: { readonly head: Uint8Array; readonly counts: readonly number[] } | undefined;

  constructor(private readonly reader: ChainReader, private readonly pending: PendingHead) {}

  async hashForMergedMining(header: BlockHeader, base = mergedMiningBaseHash(header)): Promise<Uint8Array> {
    if (header.number < FORK_DETECTION_FROM) return base;
    const head = this.pending.tip();
    const onHead = equalsBytes(header.parentHash, head.hash);
    const parentNumber = header.number - 1n;
    const start = (parentNumber / CPV_SPAN) * CPV_SPAN;
    let hashes = onHead && this.#headWindow?.start === start ? this.#headWindow.hashes : undefined;
    if (!hashes) {
      const found = new Map<bigint, Uint8Array>();
      let missing = false;
      for (let i = 0n; i < 7n; i++) {
        const height = start - CPV_SPAN * i;
        if (height < 0n) break;
        const hash = onHead ? await this.canonicalForkHash(height) : parentChainHash(await this.reader.ancestorHeader(header.parentHash, height));
        if (hash) found.set(height, hash);
        else missing = true;
      }
      if (onHead && !missing) this.#headWindow = { start, hashes: found };
      hashes = found;
    }
    const counts = onHead ? await this.headUncleCounts(head) : await this.uncleCounts(header.parentHash);
    const uncleCountSum = counts.reduce((sum, n) => sum + n, 0);
    const data = forkDetectionData({
      parentNumber, blockNumber: header.number, parentHeaderHashes: (h: bigint) => hashes.get(h), uncleCountSum,
    });
    return applyForkDetection(base, data, header.number);
  }

  /** `block` became the head on top of the previous head (the head's uncle counts move along). */
  headExtended(block: Block): void {
    const window = this.#headUncleCounts;
    if (window && equalsBytes(window.head, block.header.parentHash)) {
      this.#headUncleCounts = { head: block.hash, counts: [block.header.uncleCount, ...window.counts.slice(0, UNCLE_COUNT_WINDOW - 1)] };
    }
  }

  /** Canonical blocks were replaced (a reorg): their cached hashes go. */
  canonicalReplaced(): void {
    this.#canonicalForkHashes.clear();
    this.#headWindow = undefined;
  }

  /**
   * The head went back from `from` to `to` (a rewind): the canonical blocks up to `to` stay, so only the
   * hashes cached above it go (heights are multiples of CPV_SPAN), and the head's window stays when it
   * starts at or below `to`. The first block after an evm_revert then reads no ancestors from disk.
   */
  rewound(from: bigint, to: bigint): void {
    for (let height = (to / CPV_SPAN + 1n) * CPV_SPAN; height <= from; height += CPV_SPAN) this.#canonicalForkHashes.delete(height);
    if (this.#headWindow && this.#headWindow.start > to) this.#headWindow = undefined;
  }

  /** Uncle counts of the headers ending at `hash` (fewer near genesis), newest first. */
  private async uncleCounts(hash: Uint8Array): Promise<number[]> {
    const counts: number[] = [];
    let cursor = await this.reader.getHeader(hash);
    while (cursor && counts.length < UNCLE_COUNT_WINDOW) {
      counts.push(cursor.uncleCount);
      cursor = cursor.number === 0n ? undefined : await this.reader.getHeader(cursor.parentHash);
    }
    return counts;
  }

  private async headUncleCounts(head: HeadInfo): Promise<readonly number[]> {
    if (!this.#headUncleCounts || !equalsBytes(this.#headUncleCounts.head, head.hash)) {
      await this.pending.flush(); // the walk reads the head's ancestry from disk
      this.#headUncleCounts = { head: head.hash, counts: await this.uncleCounts(head.hash) };
    }
    return this.#headUncleCounts.counts;
  }

  private async canonicalForkHash(height: bigint): Promise<Uint8Array | undefined> {
    const cached = this.#canonicalForkHashes.get(height);
    if (cached) return cached;
    const pending = this.pending.pendingBlock(height)?.header;
    const hash = pending ? undefined : await this.reader.canonicalHash(height);
    const forkHash = parentChainHash(pending ?? (hash && await this.reader.getHeader(hash)));
    if (forkHash) this.#canonicalForkHashes.set(height, forkHash);
    return forkHash;
  }
}

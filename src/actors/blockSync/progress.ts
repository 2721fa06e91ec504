/** How fast a running sync goes and when it should be done, from samples of the head over the last half minute. */

export interface SyncReport {
  readonly startingBlock: bigint;
  readonly currentBlock: bigint;
  readonly highestBlock: bigint;
  readonly blocksPerSecond: number;
  /** Undefined while no block has been imported yet. */
  readonly etaSeconds: number | undefined;
}

/** The rate is measured over this window, so it follows the sync's current pace. */
const WINDOW_MS = 30_000;

export class SyncProgress {
  readonly #samples: { at: number; block: bigint }[] = [];

  constructor(readonly startingBlock: bigint, readonly highestBlock: bigint, now = Date.now()) {
    this.#samples.push({ at: now, block: startingBlock });
  }

  report(currentBlock: bigint, now = Date.now()): SyncReport {
    const samples = this.#samples;
    samples.push({ at: now, block: currentBlock });
    while (samples.length > 2 && now - samples[1]!.at >= WINDOW_MS) samples.shift();
    const first = samples[0]!;
    const seconds = (now - first.at) / 1000;
    const blocksPerSecond = seconds > 0 ? Number(currentBlock - first.block) / seconds : 0;
    const left = this.highestBlock > currentBlock ? Number(this.highestBlock - currentBlock) : 0;
    return {
      startingBlock: this.startingBlock, currentBlock, highestBlock: this.highestBlock, blocksPerSecond,
      etaSeconds: blocksPerSecond > 0 ? Math.ceil(left / blocksPerSecond) : left === 0 ? 0 : undefined,
    };
  }
}

/** "#1200 of #5000 (24 %), 310.5 blocks/s, about 13 s left" */
export function describeProgress(r: SyncReport): string {
  const span = r.highestBlock - r.startingBlock;
  const percent = span > 0n ? Number(((r.currentBlock - r.startingBlock) * 100n) / span) : 100;
  const eta = r.etaSeconds === undefined ? 'time left unknown' : `about ${formatDuration(r.etaSeconds)} left`;
  return `#${r.currentBlock} of #${r.highestBlock} (${percent} %), ${r.blocksPerSecond.toFixed(1)} blocks/s, ${eta}`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/**
 * When the dialer starts a random walk while below the minimum of peers with nobody left to dial
 * (docs/network.md "Discovery"): at most every 5 s while the peer count moves, twice as long after
 * each walk that starts with as many peers as the walk before, at most a minute; a change of the
 * count brings back the 5 s. A small network whose nodes all know each other stays below the minimum for
 * good: at 5 s apart, its walks were three quarters of an idle node's CPU.
 */

/** The wait between walks while the peer count moves. */
export const WALK_EVERY_MS = 5_000;
/** The longest wait between walks. */
export const WALK_MAX_EVERY_MS = 60_000;

export class WalkSchedule {
  #lastAt = -Infinity;
  #every = WALK_EVERY_MS;
  /** The peer count at the last walk (-1 before the first). */
  #peersAtLast = -1;

  /** Whether a walk is due at `now` with `peers` connected; if it is, it counts as started. */
  take(now: number, peers: number): boolean {
    const unchanged = peers === this.#peersAtLast;
    if (!unchanged) this.#every = WALK_EVERY_MS;
    if (now - this.#lastAt < this.#every) return false;
    if (unchanged) this.#every = Math.min(this.#every * 2, WALK_MAX_EVERY_MS);
    this.#lastAt = now;
    this.#peersAtLast = peers;
    return true;
  }
}

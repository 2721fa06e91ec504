/** The filter supervisor's options (--filter-timeout) and their defaults. */

export interface FilterOptions {
  /** A filter not polled for this long is removed (spec part 8 leaves the period open; the reference uses 5 minutes). */
  readonly idleTimeoutMs: number;
  /** Entries a filter holds for its next poll; one more and it is dropped, and its id answers why. */
  readonly maxBuffered: number;
}

export const DEFAULT_FILTER_OPTIONS: FilterOptions = Object.freeze({ idleTimeoutMs: 5 * 60_000, maxBuffered: 10_000 });

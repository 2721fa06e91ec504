/** The filter supervisor's options (--filter-timeout) and their defaults. */

export interface FilterOptions {
  /** A filter not polled for this long is removed (5 minutes by default, as the reference node: README "Logs, filters and WebSocket"). */
  readonly idleTimeoutMs: number;
  /** Entries a filter holds for its next poll; one more and it is dropped, and its id answers why. */
  readonly maxBuffered: number;
}

export const DEFAULT_FILTER_OPTIONS: FilterOptions = Object.freeze({ idleTimeoutMs: 5 * 60_000, maxBuffered: 10_000 });

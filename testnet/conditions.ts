/**
 * What the relays impose between nodes (docs/testnet.md, "Conditions"): one partition (groups that
 * cannot reach each other) and one latency setting (a delay for every byte between two groups). Both
 * are kept per node index; every change is announced so the relays can cut live connections.
 */
import { EventEmitter } from 'node:events';

export class ConditionError extends Error {}

export interface ConditionsView {
  /** The partition groups, or null when the network is whole. */
  readonly partition: number[][] | null;
  /** The delay and the groups it separates, or null when there is none. */
  readonly latency: { ms: number; groups: number[][] } | null;
}

export const MAX_LATENCY_MS = 10_000;

export class Conditions extends EventEmitter<{ change: [] }> {
  #partition: number[][] | null = null;
  #latency: { ms: number; groups: number[][] } | null = null;

  constructor(readonly nodeCount: number) {
    super();
  }

  /** Splits the network into `groups` (node indexes); nodes named in none form one more group. */
  partition(groups: readonly (readonly number[])[]): void {
    if (groups.length === 0) throw new ConditionError('partition needs at least one group of node indexes');
    this.#partition = this.#complete(groups);
    this.emit('change');
  }

  heal(): void {
    this.#partition = null;
    this.emit('change');
  }

  /**
   * Delays traffic between `groups` by `ms` (0 clears). Without groups: between the current partition
   * groups, or between every two nodes when there is no partition. It outlives heal().
   */
  setLatency(ms: number, groups?: readonly (readonly number[])[]): void {
    if (!Number.isInteger(ms) || ms < 0 || ms > MAX_LATENCY_MS) throw new ConditionError(`latency must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}, not ${ms}`);
    const between = groups?.length ? this.#complete(groups) : this.#partition ?? Array.from({ length: this.nodeCount }, (_, i) => [i]);
    this.#latency = ms === 0 ? null : { ms, groups: between };
    this.emit('change');
  }

  /** Whether nodes i and j are in different partition groups. */
  cut(i: number, j: number): boolean {
    return this.#partition !== null && groupOf(this.#partition, i) !== groupOf(this.#partition, j);
  }

  /** The delay in ms each chunk from i to j (or j to i) is held. */
  delayMs(i: number, j: number): number {
    const l = this.#latency;
    return l && groupOf(l.groups, i) !== groupOf(l.groups, j) ? l.ms : 0;
  }

  view(): ConditionsView {
    return { partition: this.#partition, latency: this.#latency };
  }

  #complete(groups: readonly (readonly number[])[]): number[][] {
    const seen = new Set<number>();
    for (const g of groups) {
      if (g.length === 0) throw new ConditionError('a group is empty');
      for (const i of g) {
        if (!Number.isInteger(i) || i < 0 || i >= this.nodeCount) throw new ConditionError(`no node ${i}: nodes are 0 to ${this.nodeCount - 1}`);
        if (seen.has(i)) throw new ConditionError(`node ${i} is in two groups`);
        seen.add(i);
      }
    }
    const rest = Array.from({ length: this.nodeCount }, (_, i) => i).filter((i) => !seen.has(i));
    return [...groups.map((g) => [...g]), ...(rest.length ? [rest] : [])];
  }
}

const groupOf = (groups: readonly number[][], i: number) => groups.findIndex((g) => g.includes(i));

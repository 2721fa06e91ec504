/**
 * A small least-recently-used map, bounded by its number of entries, or with `weigh` by the sum of its
 * entries' weights (bytes, say): past `capacity` the least recently used entries go, down to capacity
 * (an entry heavier than the whole capacity is not kept).
 *
 * Recency is a doubly linked list through the entries, beside a Map that finds them: a read relinks
 * its entry and leaves the Map alone, and an eviction takes the list's head. Two designs over the
 * Map's own insertion order were measured and dropped: a read that deletes and re-inserts its key
 * leaves a hole in V8's table, so a new iterator per eviction steps over every hole since the table
 * was last rebuilt (tens of µs per eviction in a cache of thousands of entries); and an iterator kept
 * across evictions holds every table V8 rebuilt since it last moved, which grew a node by 200 MB under
 * batches of reads.
 */
interface Entry<K, V> {
  readonly key: K;
  value: V;
  weight: number;
  older: Entry<K, V> | undefined;
  newer: Entry<K, V> | undefined;
}

export class Lru<K, V> {
  readonly #map = new Map<K, Entry<K, V>>();
  #oldest: Entry<K, V> | undefined;
  #newest: Entry<K, V> | undefined;
  #weight = 0;
  constructor(private readonly capacity: number, private readonly weigh: (value: V) => number = () => 1) {}
  /** The sum of the entries' weights (their number without `weigh`). */
  get weight(): number {
    return this.#weight;
  }
  get(key: K): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry !== this.#newest) {
      this.#unlink(entry);
      this.#append(entry);
    }
    return entry.value;
  }
  set(key: K, value: V): void {
    this.delete(key);
    const entry: Entry<K, V> = { key, value, weight: this.weigh(value), older: undefined, newer: undefined };
    this.#map.set(key, entry);
    this.#append(entry);
    this.#weight += entry.weight;
    while (this.#weight > this.capacity) this.delete(this.#oldest!.key);
  }
  delete(key: K): void {
    const entry = this.#map.get(key);
    if (!entry) return;
    this.#map.delete(key);
    this.#unlink(entry);
    this.#weight -= entry.weight;
  }
  clear(): void {
    this.#map.clear();
    this.#oldest = this.#newest = undefined;
    this.#weight = 0;
  }
  #append(entry: Entry<K, V>): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
  }
  #unlink(entry: Entry<K, V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
  }
}

/**
 * A small least-recently-used map (insertion order of Map gives the recency), bounded by its number of
 * entries, or with `weigh` by the sum of its entries' weights (bytes, say): past `capacity` the least
 * recently used entries go, down to capacity (an entry heavier than the whole capacity is not kept).
 */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  /**
   * Walks the entries oldest first, across evictions: a Map iterator follows the map's later changes,
   * and each entry it passes was evicted (one moved by `get` comes again, at its new place). A new
   * iterator for every eviction would step again over every entry deleted before it, which V8 keeps
   * as holes until the table is rebuilt: with thousands of entries, each eviction cost tens of µs.
   */
  #oldest: Iterator<K> = this.#map.keys();
  #weight = 0;
  constructor(private readonly capacity: number, private readonly weigh: (value: V) => number = () => 1) {}
  /** The sum of the entries' weights (their number without `weigh`). */
  get weight(): number {
    return this.#weight;
  }
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: K, value: V): void {
    this.delete(key);
    this.#map.set(key, value);
    this.#weight += this.weigh(value);
    while (this.#weight > this.capacity) {
      let oldest = this.#oldest.next();
      if (oldest.done) oldest = (this.#oldest = this.#map.keys()).next();
      this.delete(oldest.value as K);
    }
  }
  delete(key: K): void {
    const v = this.#map.get(key);
    if (v === undefined && !this.#map.has(key)) return;
    this.#map.delete(key);
    this.#weight -= this.weigh(v as V);
  }
  clear(): void {
    this.#map.clear();
    this.#oldest = this.#map.keys();
    this.#weight = 0;
  }
}

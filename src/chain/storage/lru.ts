/**
 * A small least-recently-used map (insertion order of Map gives the recency), bounded by its number of
 * entries, or with `weigh` by the sum of its entries' weights (bytes, say): past `capacity` the least
 * recently used entries go, down to capacity (an entry heavier than the whole capacity is not kept).
 */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
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
    while (this.#weight > this.capacity) this.delete(this.#map.keys().next().value as K);
  }
  delete(key: K): void {
    const v = this.#map.get(key);
    if (v === undefined && !this.#map.has(key)) return;
    this.#map.delete(key);
    this.#weight -= this.weigh(v as V);
  }
  clear(): void {
    this.#map.clear();
    this.#weight = 0;
  }
}

/**
 * A bounded map that drops its least recently used entry when full: a Map keeps insertion
 * order, so a hit moves its entry to the end and the first key is the oldest. Shared by the
 * memos of the /query path (statement texts, query strings).
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  /** Keeps `value`, dropping the least recently used entry beyond `maxEntries`. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
  }
}

/**
 * A map bounded by a byte budget with CLOCK (second chance) eviction, an approximation of LRU:
 * a hit only marks its entry used; eviction walks from the oldest entry, moves used ones to
 * the back with the mark cleared and drops the first unused one. A true LRU moves the entry
 * on every hit (Map delete + set), which on a map of every block of a data set cost ~5 % of a
 * small query's CPU. Shared by the block cache and the decoded-block cache.
 */
interface Slot<V> {
  readonly value: V;
  readonly cost: number;
  used: boolean;
}

export class ClockMap<K, V> {
  /** Map iteration order is insertion order: the first entry is the next the clock hand looks at. */
  private readonly map = new Map<K, Slot<V>>();
  private bytes = 0;
  /** Entries dropped to make room (not counting delete / deleteWhere). */
  evictions = 0;

  constructor(readonly maxBytes: number) {}

  get usedBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, marked used; undefined when absent. */
  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    slot.used = true;
    return slot.value;
  }

  /** Keeps `value` at `cost` bytes, evicting until it fits; a value costing more than the whole budget is not kept. */
  set(key: K, value: V, cost: number): void {
    this.delete(key);
    if (cost > this.maxBytes) return;
    while (this.bytes + cost > this.maxBytes) this.evictOne();
    this.map.set(key, { value, cost, used: false });
    this.bytes += cost;
  }

  delete(key: K): void {
    const slot = this.map.get(key);
    if (slot === undefined) return;
    this.map.delete(key);
    this.bytes -= slot.cost;
  }

  /** Drops every entry whose key matches (O(entries)). */
  deleteWhere(matches: (key: K) => boolean): void {
    for (const [key, slot] of this.map) {
      if (!matches(key)) continue;
      this.map.delete(key);
      this.bytes -= slot.cost;
    }
  }

  /** Drops the first entry not used since the clock hand last passed it (ends within two rounds). */
  private evictOne(): void {
    for (;;) {
      const oldest = this.map.entries().next();
      if (oldest.done) return;
      const [key, slot] = oldest.value;
      this.map.delete(key);
      if (slot.used) {
        slot.used = false;
        this.map.set(key, slot);
        continue;
      }
      this.bytes -= slot.cost;
      this.evictions++;
      return;
    }
  }
}

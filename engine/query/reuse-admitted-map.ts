/**
 * A byte-bounded CLOCK map (clock-map.ts) that keeps a value only when its key is set a
 * second time while still remembered: the first set leaves just the key (a "ghost", no
 * value), a later set of a remembered key keeps the value. Ghosts are bounded by half the
 * budget (counted at the cost their values would have), so only a key re-set within a cycle
 * that the map holds with room to spare is admitted.
 *
 * Why not plain CLOCK: decoded blocks kept for a short while and then evicted were the old
 * space's main garbage. A query that walks more decoded blocks than the budget (every series
 * over the whole range: 500 blocks against ~250) evicted them all before any was asked for
 * again, and each such request promoted its blocks to V8's old space where they died: under
 * repeated such queries a mark-compact every 5-10 requests (--trace-gc-nvp), whose
 * incremental steps then land in other requests. Never keeping them measured 0-2
 * mark-compacts per 100 requests instead of 6-11; an admission FIFO (2Q's probation, holding
 * values for a while) did not help, since it is the short stay that costs. A value is now
 * kept for long or not at all.
 */
import { ClockMap } from '../clock-map.js';

export class ReuseAdmittedMap<K, V> {
  private readonly kept: ClockMap<K, V>;
  /** Keys set once lately, with the cost their values had; insertion order is age. */
  private readonly ghosts = new Map<K, number>();
  private ghostBytes = 0;
  private readonly ghostMax: number;

  constructor(readonly maxBytes: number) {
    this.kept = new ClockMap(maxBytes);
    this.ghostMax = Math.floor(maxBytes / 2);
  }

  get usedBytes(): number {
    return this.kept.usedBytes;
  }

  get size(): number {
    return this.kept.size;
  }

  /** Remembered keys (tests). */
  get ghostCount(): number {
    return this.ghosts.size;
  }

  /** The kept value, marked used; undefined when absent (also for a key only remembered). */
  get(key: K): V | undefined {
    return this.kept.get(key);
  }

  /** Keeps `value` at `cost` bytes if `key` was set before and is still remembered; else remembers the key. */
  set(key: K, value: V, cost: number): void {
    const ghost = this.ghosts.get(key);
    if (ghost !== undefined) {
      this.ghosts.delete(key);
      this.ghostBytes -= ghost;
      this.kept.set(key, value, cost);
      return;
    }
    this.kept.delete(key);
    if (cost > this.ghostMax) return;
    this.ghosts.set(key, cost);
    this.ghostBytes += cost;
    while (this.ghostBytes > this.ghostMax) {
      const oldest = this.ghosts.entries().next();
      if (oldest.done) break;
      this.ghosts.delete(oldest.value[0]);
      this.ghostBytes -= oldest.value[1];
    }
  }

  delete(key: K): void {
    this.kept.delete(key);
    const ghost = this.ghosts.get(key);
    if (ghost === undefined) return;
    this.ghosts.delete(key);
    this.ghostBytes -= ghost;
  }
}

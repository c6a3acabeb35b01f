/**
 * 1.x computes sum() and mean() per series and shard first and merges those partial results in
 * layers: the series of a shard (in series-key order), then the shards, then the query's one
 * source. Float addition is not associative, so Strata groups the additions the same way to
 * print 1.x's last digits. mean() merges partial means weighted by their counts, as 1.x's
 * FloatMeanReducer does: a partial of n ≥ 2 points adds mean·n, a single point adds itself.
 */

/** Which partial the points being added belong to: set by the caller before each add. */
export interface PartialClock {
  series: number;
  /** The shard's base time; 0n when the caller cannot tell shards apart. */
  shard: bigint;
}

export interface Level {
  sum: number;
  n: number;
}

export function mergeMean(into: Level, mean: number, n: number): void {
  if (n >= 2) {
    into.sum += mean * n;
    into.n += n;
  } else {
    into.sum += mean;
    into.n++;
  }
}

/**
 * The order 1.x's merge heap pops equal items in: the first, then the last, the one before it,
 * and so on (Go's container/heap moves the last item to the root on every Pop). It fits most
 * of 1.6.7's multi-shard sums (49 of 59 recorded cases, every one with up to two shards), but
 * not all: the exact order there also depends on how 1.x's iterators interleave.
 */
function mergeHeapOrder<T>(items: readonly T[]): T[] {
  return items.length === 0 ? [] : [items[0]!, ...items.slice(1).reverse()];
}

export class Partials {
  private series = -1;
  private shard = 0n;
  /** Closed partials by shard; made on the first fold (most windows of a GROUP BY time query see one partial). */
  private shards: Map<bigint, Level> | undefined;

  constructor(
    private readonly clock: PartialClock,
    private readonly mean: boolean,
  ) {}

  /** True when the clock has moved to another series or shard since the previous call. */
  moved(): boolean {
    const c = this.clock;
    if (c.series === this.series && c.shard === this.shard) return false;
    this.series = c.series;
    this.shard = c.shard;
    return true;
  }

  /**
   * Close a partial of `n` points whose plain sum is `sum` (already a float; integer sums are
   * converted first, as 1.x's integer mean does). It belongs to the shard the clock was on.
   */
  fold(sum: number, n: number, shard: bigint): void {
    if (n === 0) return;
    const shards = (this.shards ??= new Map());
    let level = shards.get(shard);
    if (!level) shards.set(shard, (level = { sum: 0, n: 0 }));
    this.merge(level, sum, n);
  }

  private merge(level: Level, sum: number, n: number): void {
    if (this.mean) mergeMean(level, sum / n, n);
    else {
      level.sum += sum;
      level.n += n;
    }
  }

  /** The shard the running partial belongs to (read before `moved()` switches it). */
  get currentShard(): bigint {
    return this.shard;
  }

  /**
   * The merged result with the still running partial (`sum` of `n` points) included: the float
   * sum, or the mean; undefined when there are no points. Leaves the state as it is.
   */
  result(sum: number, n: number): number | undefined {
    const closed = this.shards;
    if (closed === undefined || (closed.size === 1 && (n <= 0 || closed.has(this.shard)))) {
      // One shard (or none yet): its level alone, without copying the map.
      const only = closed?.values().next().value;
      if (only === undefined && n <= 0) return undefined;
      const level: Level = only ? { sum: only.sum, n: only.n } : { sum: 0, n: 0 };
      if (n > 0) this.merge(level, sum, n);
      return this.combine([level]);
    }
    const shards = new Map([...closed].map(([k, l]) => [k, { ...l }]));
    if (n > 0) {
      const level = shards.get(this.shard) ?? { sum: 0, n: 0 };
      shards.set(this.shard, level);
      this.merge(level, sum, n);
    }
    if (shards.size === 0) return undefined;
    const order = mergeHeapOrder([...shards.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    return this.combine(order.map((k) => shards.get(k)!));
  }

  /** The shards' levels merged in `levels` order, then (mean) once more at the query level. */
  private combine(levels: readonly Level[]): number {
    const all: Level = { sum: 0, n: 0 };
    // A shard's merged partial enters the next layer like a series' partial did.
    for (const s of levels) this.merge(all, s.sum, s.n);
    if (!this.mean) return all.sum;
    // The query level merges the one source's partial once more.
    const top: Level = { sum: 0, n: 0 };
    mergeMean(top, all.sum / all.n, all.n);
    return top.sum / top.n;
  }
}

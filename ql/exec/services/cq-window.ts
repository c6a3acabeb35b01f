/**
 * When a continuous query runs and over which time range: InfluxDB 1.x's
 * services/continuous_querier (ExecuteContinuousQuery, shouldRunContinuousQuery), step for step.
 *
 * - It runs when it never ran (since start-up) or when lastRun + EVERY <= now.
 * - lastRun becomes now truncated to EVERY (shifted by the GROUP BY offset).
 * - FOR defaults to the GROUP BY interval, or to EVERY when EVERY is longer. The catalog
 *   stores FOR and EVERY with the interval filled in, and 1.x rejects FOR < EVERY, so the
 *   effective FOR is max(stored FOR, stored EVERY).
 * - start = trunc(nextRun + interval - FOR - offset - 1ns, interval) + offset
 *   end   = trunc(now + interval - min(EVERY, interval) - offset, interval) + offset
 *   where nextRun is lastRun + EVERY (or now on the first run). An empty range runs nothing
 *   but still counts as a run.
 *
 * Truncation is Go's time.Truncate: to a multiple of d since Go's zero time (0001-01-01 UTC),
 * not the Unix epoch. The two agree for every interval that divides a day; for e.g. 1w they
 * differ, and 1.x's windows align to Mondays, which is what we reproduce.
 */

/** Unix epoch minus Go's zero time, in ns. */
const GO_ZERO_OFFSET_NS = 62_135_596_800n * 1_000_000_000n;

/** Go's `time.Time.Truncate(d)` on a Unix ns timestamp. */
export function goTruncate(tNs: bigint, dNs: bigint): bigint {
  if (dNs <= 0n) return tNs;
  let r = (tNs + GO_ZERO_OFFSET_NS) % dNs;
  if (r < 0n) r += dNs;
  return tNs - r;
}

export interface CqTiming {
  /** GROUP BY time interval, ns (> 0). */
  readonly intervalNs: bigint;
  /** GROUP BY time offset, ns, normalised to [0, interval). */
  readonly offsetNs: bigint;
  readonly everyNs: bigint;
  readonly forNs: bigint;
}

export type CqPlan =
  | { readonly run: false }
  | { readonly run: true; readonly lastRunNs: bigint; readonly window: { readonly startNs: bigint; readonly endNs: bigint } | null };

export function planCqRun(t: CqTiming, nowNs: bigint, lastRunNs: bigint | undefined): CqPlan {
  const { intervalNs: interval, offsetNs: offset } = t;
  let every = t.everyNs > 0n ? t.everyNs : interval;
  let nextRun = nowNs;
  if (lastRunNs !== undefined) {
    nextRun = lastRunNs + every;
    if (nextRun > nowNs) return { run: false };
  }
  const lastRun = goTruncate(nowNs - offset, every) + offset;
  const forNs = t.forNs > 0n ? t.forNs : interval;
  const resampleFor = forNs > every ? forNs : every;
  if (interval < every) every = interval;
  const startNs = goTruncate(nextRun + interval - resampleFor - offset - 1n, interval) + offset;
  const endNs = goTruncate(nowNs + interval - every - offset, interval) + offset;
  return { run: true, lastRunNs: lastRun, window: endNs > startNs ? { startNs, endNs } : null };
}

/** 1.x GroupByOffset: the offset modulo the interval, made non-negative. */
export function normaliseOffset(offsetNs: bigint, intervalNs: bigint): bigint {
  if (intervalNs <= 0n) return 0n;
  let o = offsetNs % intervalNs;
  if (o < 0n) o += intervalNs;
  return o;
}

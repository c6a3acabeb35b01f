/**
 * Time arithmetic without per-point BigInt.
 *
 * A timestamp is (sec, nsec): whole seconds since the epoch plus 0..999_999_999 ns. Inside a
 * shard, times are Float64 offsets in ns from the shard's start; shards are never wider than
 * MAX_SHARD_SPAN_SEC so every offset is an exact integer below 2^53.
 */
export const NS_PER_SEC = 1_000_000_000;
export const NS_PER_SEC_BIG = 1_000_000_000n;

/** ~52 days: 2^52 ns. Larger shard group durations are split into spans of this width. */
export const MAX_SHARD_SPAN_SEC = 4_503_599;

/** int64 nanosecond limits as 1.x accepts them. */
export const MIN_TIME_NS = -9223372036854775806n;
export const MAX_TIME_NS = 9223372036854775806n;

export function toNs(sec: number, nsec: number): bigint {
  return BigInt(sec) * NS_PER_SEC_BIG + BigInt(nsec);
}

export function fromNs(ns: bigint): { sec: number; nsec: number } {
  let sec = ns / NS_PER_SEC_BIG;
  let nsec = ns - sec * NS_PER_SEC_BIG;
  if (nsec < 0n) {
    nsec += NS_PER_SEC_BIG;
    sec -= 1n;
  }
  return { sec: Number(sec), nsec: Number(nsec) };
}

/** Current wall-clock time as (sec, nsec), with microsecond resolution from the high-res clock. */
export function nowTime(): { sec: number; nsec: number } {
  const ms = Date.now();
  const sec = Math.floor(ms / 1000);
  const sub = (performance.timeOrigin + performance.now()) % 1; // fractional ms for sub-ms ordering
  return { sec, nsec: (ms - sec * 1000) * 1_000_000 + Math.floor(sub * 1_000_000) };
}

/** InfluxDB's default shard group duration for a retention policy duration (0 = infinite). */
export function defaultShardGroupDurationSec(rpDurationSec: number): number {
  const hour = 3600;
  const day = 24 * hour;
  if (rpDurationSec === 0) return 7 * day;
  if (rpDurationSec < 2 * day) return hour;
  if (rpDurationSec <= 180 * day) return day;
  return 7 * day;
}

/** Seconds from Go's zero time (0001-01-01T00:00:00Z) to the Unix epoch. */
const GO_ZERO_TO_EPOCH_SEC = 62_135_596_800;

/**
 * Start second of the shard span holding `sec`. 1.x truncates with Go's time.Truncate, which
 * counts from year 1 rather than 1970: hourly and daily groups fall on the same boundaries
 * either way, but 7-day groups start on Mondays (1970-01-01 was a Thursday).
 */
export function shardStartSec(sec: number, shardSpanSec: number): number {
  return Math.floor((sec + GO_ZERO_TO_EPOCH_SEC) / shardSpanSec) * shardSpanSec - GO_ZERO_TO_EPOCH_SEC;
}

/** Go's time.Duration String() for whole seconds, as 1.x prints RP durations (`168h0m0s`, `0s`). */
export function formatGoDuration(totalSec: number): string {
  if (totalSec === 0) return '0s';
  const neg = totalSec < 0;
  let s = Math.abs(totalSec);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const secText = Number.isInteger(s) ? String(s) : String(Number(s.toFixed(9)));
  const body = h > 0 ? `${h}h${m}m${secText}s` : m > 0 ? `${m}m${secText}s` : `${secText}s`;
  return neg ? '-' + body : body;
}

/** RFC 3339 with nanoseconds, trailing zeros trimmed, UTC (`2024-03-09T00:00:00.5Z`). */
export function formatRfc3339(sec: number, nsec: number): string {
  const d = new Date(sec * 1000);
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z for years 0..9999
  const base = iso.slice(0, 19);
  if (nsec === 0) return base + 'Z';
  const frac = String(nsec).padStart(9, '0').replace(/0+$/, '');
  return `${base}.${frac}Z`;
}

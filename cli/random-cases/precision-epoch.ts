/**
 * Random writes with each `precision` (and a few spellings 1.x may not take), read back with
 * each `epoch` (and RFC 3339 when none): raw rows, GROUP BY time windows, selectors whose time
 * is a point's, CSV and chunked answers, SHOW statements under an epoch. Timestamps are whole
 * numbers in the write's unit, including ones that do not divide evenly by the read's unit
 * (1.x truncates toward zero), negative ones and ones near the edges of the int64 range.
 */
import type { Picker } from './pick.js';

// Not u, us or unknown units: decisions.md reads them otherwise than 1.6.7 (documented).
const PRECISIONS = ['h', 'm', 's', 'ms', 'n', 'ns', ''];
const EPOCHS = ['h', 'm', 's', 'ms', 'ns', 'n'];
/** ns per unit, for keeping a timestamp inside 1.x's range. */
const UNIT_NS: Readonly<Record<string, bigint>> = { h: 3_600_000_000_000n, m: 60_000_000_000n, s: 1_000_000_000n, ms: 1_000_000n, u: 1000n, us: 1000n };
const MAX_NS = 9_223_372_036_854_775_806n;

function stamp(p: Picker, precision: string): bigint {
  const unit = UNIT_NS[precision] ?? 1n;
  const base = p.pick([0n, 1n, -1n, 7n, 59n, 61n, 3599n, 3601n, 1_700_000_000n, 1_700_000_000_123n, 1_700_000_000_123_457n, 1_700_000_000_123_456_789n, -86_401n]);
  let t = base + BigInt(Math.floor(p.r() * 5));
  // Keep inside what 1.x stores (its range is ±(2^63 - 2) ns).
  while (t * unit > MAX_NS || t * unit < -MAX_NS) t /= 1000n;
  return t;
}

export interface PrecisionCase {
  readonly body: string;
  readonly precision: string;
  readonly verify: readonly { q: string; params?: Record<string, string>; accept?: string }[];
}

export function randomPrecisionCase(p: Picker): PrecisionCase {
  const precision = p.pick(PRECISIONS);
  const lines: string[] = [];
  const n = 1 + Math.floor(p.r() * 5);
  for (let i = 0; i < n; i++) lines.push(`m,host=${p.pick(['a', 'b'])} v=${i + 1}i,f=${(p.r() * 10).toFixed(3)} ${stamp(p, precision)}`);
  const epoch = (): Record<string, string> => (p.chance(0.15) ? {} : { epoch: p.pick(EPOCHS) });
  const reads = [
    () => ({ q: 'SELECT * FROM m', params: epoch() }),
    () => ({ q: 'SELECT v, host FROM m ORDER BY time DESC', params: epoch() }),
    () => ({ q: `SELECT count(v), max(f) FROM m WHERE time >= ${p.pick(['0', "'1970-01-01T00:00:00Z'", "'2023-11-14T00:00:00Z'", '-1h'])} AND time < ${p.pick(["'2024-01-01T00:00:00Z'", '1h', '2000000000000000000'])} GROUP BY time(${p.pick(['1s', '1m', '1h', '1d', '1ms'])}) fill(none)`, params: epoch() }),
    () => ({ q: 'SELECT max(v), f FROM m', params: epoch() }),
    () => ({ q: 'SELECT first(v), last(f) FROM m GROUP BY host', params: epoch() }),
    () => ({ q: 'SELECT * FROM m', params: epoch(), accept: 'application/csv' }),
    () => ({ q: 'SELECT * FROM m', params: { ...epoch(), chunked: 'true', chunk_size: '2' } }),
    () => ({ q: 'SHOW SERIES; SHOW FIELD KEYS', params: epoch() }),
    () => ({ q: 'SELECT mean(f) FROM m', params: epoch(), accept: 'application/csv' }),
  ];
  const verify = Array.from({ length: 2 + Math.floor(p.r() * 3) }, () => p.pick(reads)());
  return { body: lines.join('\n'), precision, verify };
}

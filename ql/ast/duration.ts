/**
 * InfluxQL durations: nanoseconds as bigint (Go's int64 time.Duration; `52w` or `1000d` exceed
 * 2^53, so a JS number would not do). Suffixes: ns, u or µ, ms, s, m, h, d, w; several terms may be
 * concatenated (`1h30m`). Arithmetic wraps at int64 like Go, and an overflow is reported the 1.x way.
 */
export const NS = {
  ns: 1n,
  u: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
  w: 604_800_000_000_000n,
} as const;

const INT64_MAX = (1n << 63n) - 1n;
const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);

/** Result of parseDuration: the value, or the 1.x error text. */
export type DurationResult = { readonly ok: true; readonly ns: bigint } | { readonly ok: false; readonly error: string };

const invalid: DurationResult = { ok: false, error: 'invalid duration' };

/** influxql.ParseDuration: `-`? (digits unit)+ with int64 wrap-around and its overflow message. */
const isUnit = (u: string): u is keyof typeof NS => Object.hasOwn(NS, u);

const SIMPLE = /^(\d{1,15})(ns|ms|u|µ|s|m|h|d|w)$/;

export function parseDuration(s: string): DurationResult {
  const m = SIMPLE.exec(s);
  if (m !== null) {
    // Fast path: one term of at most 15 digits; only weeks/days can overflow int64 here.
    const unit = m[2] === 'µ' ? 'u' : m[2] ?? '';
    if (isUnit(unit)) {
      const ns = BigInt(m[1] ?? '0') * NS[unit];
      if (ns <= INT64_MAX) return { ok: true, ns };
    }
  }
  const a = Array.from(s);
  if (a.length < 2) return invalid;
  let i = 0;
  const negative = a[0] === '-';
  if (negative) i++;
  let d = 0n;
  let measure = 0n;
  let unit = '';
  while (i < a.length) {
    const start = i;
    while (i < a.length && /[0-9]/.test(a[i] ?? '')) i++;
    if (i >= a.length || i === start) return invalid;
    const digits = a.slice(start, i).join('').replace(/^0+(?=\d)/, '');
    if (digits.length > 19) return invalid; // beyond int64 (and keeps BigInt parsing cheap)
    const n = BigInt(digits);
    if (n > INT64_MAX) return invalid;
    measure = n;
    const ch = a[i];
    const next = a[i + 1];
    let mult: bigint;
    if (ch === 'n' && next === 's') { mult = NS.ns; unit = 'ns'; i += 2; }
    else if (ch === 'm' && next === 's') { mult = NS.ms; unit = 'ms'; i += 2; }
    else if (ch === 'u' || ch === 'µ') { mult = NS.u; unit = ch; i++; }
    else if (ch === 'm' || ch === 's' || ch === 'h' || ch === 'd' || ch === 'w') { mult = NS[ch]; unit = ch; i++; }
    else return invalid;
    d = wrap(d + wrap(n * mult));
  }
  if (d < 0n && !negative) {
    return { ok: false, error: `overflowed duration ${measure}${unit}: choose a smaller duration or INF` };
  }
  return { ok: true, ns: negative ? wrap(-d) : d };
}

/** influxql.FormatDuration: the largest unit that divides exactly (`90m`, `1h`, `1500ms`, `0s`). */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  for (const unit of ['w', 'd', 'h', 'm', 's', 'ms', 'u'] as const) {
    if (ns % NS[unit] === 0n) return `${ns / NS[unit]}${unit}`;
  }
  return `${ns}ns`;
}

/** Go's time.Duration.String() (`1h0m0s`, `1.5s`, `0s`), used by SHOW RETENTION POLICIES. */
export function goDurationString(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  if (u < NS.s) {
    const [unit, size] = u < NS.u ? ['ns', 1n] : u < NS.ms ? ['µs', NS.u] : ['ms', NS.ms];
    return (neg ? '-' : '') + fraction(u, size) + unit;
  }
  const h = u / NS.h;
  u -= h * NS.h;
  const m = u / NS.m;
  u -= m * NS.m;
  const secs = fraction(u, NS.s);
  const out = h > 0n ? `${h}h${m}m${secs}s` : m > 0n ? `${m}m${secs}s` : `${secs}s`;
  return (neg ? '-' : '') + out;
}

function fraction(v: bigint, size: bigint): string {
  const whole = v / size;
  const rest = v % size;
  if (rest === 0n) return whole.toString();
  const digits = rest.toString().padStart(size.toString().length - 1, '0').replace(/0+$/, '');
  return `${whole}.${digits}`;
}

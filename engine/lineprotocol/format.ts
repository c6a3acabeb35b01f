/**
 * Point → one line of line protocol with an explicit nanosecond timestamp; the inverse of
 * parseLineProtocol. Used to rewrite partially accepted batches into the WAL and by
 * `strata export`, so it must re-parse to the identical point:
 *   floats   shortest text that round-trips (`String(x)`, exponent allowed), `-0` kept
 *   integers `…i`, unsigned `…u` (bigint beyond 2^53 printed exactly)
 *   strings  quoted, `"` and `\` escaped; newlines stay raw (the parser tracks quotes)
 * NaN and ±Inf have no line-protocol spelling and are refused with LineProtocolError.
 */
import { FieldType } from '../point.js';
import type { Field, Point } from '../point.js';
import { LineProtocolError } from './errors.js';
import { escapeFieldKey, escapeStringValue } from './series-key.js';

const PAD9 = '000000000';

/** (sec, nsec) → decimal nanoseconds since the epoch, exact, without BigInt. */
export function formatTimestampNs(sec: number, nsec: number): string {
  if (sec >= 0) {
    if (sec === 0) return String(nsec);
    const frac = String(nsec);
    return String(sec) + PAD9.slice(frac.length) + frac;
  }
  // sec*1e9 + nsec = -((-sec - 1)*1e9 + (1e9 - nsec)) when nsec > 0.
  if (nsec === 0) return '-' + String(-sec) + PAD9;
  const hi = -sec - 1;
  const lo = String(1_000_000_000 - nsec);
  return hi === 0 ? '-' + lo : '-' + String(hi) + PAD9.slice(lo.length) + lo;
}

/** A float in a spelling that parses back to the same bits. */
export function formatFloat(v: number): string {
  if (!Number.isFinite(v)) throw new LineProtocolError(`${v} is not representable in line protocol`);
  return Object.is(v, -0) ? '-0' : String(v);
}

function formatValue(f: Field): string {
  switch (f.type) {
    case FieldType.Float:
      return formatFloat(f.value);
    case FieldType.Integer:
      return String(f.value) + 'i';
    case FieldType.Unsigned:
      return String(f.value) + 'u';
    case FieldType.Boolean:
      return f.value ? 'true' : 'false';
    case FieldType.String:
      return '"' + escapeStringValue(f.value) + '"';
  }
}

/** The field set `k=v,k=v` of a point. */
export function formatFields(fields: readonly Field[]): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    out += (i === 0 ? '' : ',') + escapeFieldKey(f.key) + '=' + formatValue(f);
  }
  return out;
}

/** One line (no trailing newline). Relies on Point.seriesKey being canonical. */
export function formatPoint(p: Point): string {
  return p.seriesKey + ' ' + formatFields(p.fields) + ' ' + formatTimestampNs(p.sec, p.nsec);
}

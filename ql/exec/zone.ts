/**
 * Time-zone offsets from the runtime's IANA database (Intl), as Go's time.Location gives them.
 */
import { UnknownTimeZoneError } from './errors.js';

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, number>();
const MAX_CACHE = 50_000;

/** The formatter for zone `tz`; throws UnknownTimeZoneError for a zone the runtime lacks. */
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      // Go's time.LoadLocation("Local"): the process's zone (TZ, else /etc/localtime), which is
      // also what the runtime's default formatter resolves to.
      timeZone: tz === 'Local' ? new Intl.DateTimeFormat().resolvedOptions().timeZone : tz,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    throw new UnknownTimeZoneError(tz);
  }
  // Go's LoadLocation reads tzdata files by exact name: a zone spelled in another case is unknown.
  const resolved = f.resolvedOptions().timeZone;
  if (resolved !== tz && resolved.toLowerCase() === tz.toLowerCase()) throw new UnknownTimeZoneError(tz);
  formatters.set(tz, f);
  return f;
}

/** Throws UnknownTimeZoneError unless `tz` is a zone name the runtime knows. */
export function checkTimeZone(tz: string): void {
  formatter(tz);
}

/** Offset of zone `tz` from UTC, in whole seconds, at the instant `sec` (seconds since the epoch). */
export function zoneOffsetSec(tz: string, sec: number): number {
  const key = tz + '\u0000' + sec;
  const hit = offsetCache.get(key);
  if (hit !== undefined) return hit;
  const parts = formatter(tz).formatToParts(new Date(sec * 1000));
  let y = 0;
  let mo = 0;
  let d = 0;
  let h = 0;
  let mi = 0;
  let s = 0;
  let bc = false;
  for (const p of parts) {
    switch (p.type) {
      case 'year': y = Number(p.value); break;
      case 'month': mo = Number(p.value); break;
      case 'day': d = Number(p.value); break;
      case 'hour': h = Number(p.value); break;
      case 'minute': mi = Number(p.value); break;
      case 'second': s = Number(p.value); break;
      case 'era': bc = p.value.startsWith('B'); break;
      default: break;
    }
  }
  const date = new Date(0);
  date.setUTCFullYear(bc ? 1 - y : y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  const off = Math.round((date.getTime() - sec * 1000) / 1000);
  if (offsetCache.size >= MAX_CACHE) offsetCache.clear();
  offsetCache.set(key, off);
  return off;
}

/** Offset of zone `tz` at `ns` (nanoseconds since the epoch), in nanoseconds (Go opt.Zone). */
export function zoneOffsetNs(tz: string, ns: bigint): bigint {
  let sec = ns / 1_000_000_000n;
  if (ns < 0n && sec * 1_000_000_000n !== ns) sec -= 1n; // floor
  return BigInt(zoneOffsetSec(tz, Number(sec))) * 1_000_000_000n;
}

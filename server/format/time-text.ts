/**
 * RFC 3339 row times for result bodies, byte-identical to `rfc3339Nano` but without a Date
 * per row: rows of a series are close in time, so the `YYYY-MM-DDTHH:MM:` prefix of the last
 * minute seen is kept and only seconds and the fraction are formatted.
 */
import { rfc3339NanoInZone } from './epoch.js';

const NS_PER_SEC = 1_000_000_000n;

export class Rfc3339Cache {
  private minute = NaN;
  private prefix = '';

  /** The same text as rfc3339Nano(ns). */
  format(ns: bigint): string {
    let sec = ns / NS_PER_SEC;
    let frac = Number(ns - sec * NS_PER_SEC);
    if (frac < 0) {
      frac += 1e9;
      sec -= 1n;
    }
    const s = Number(sec);
    const minute = Math.floor(s / 60);
    if (minute !== this.minute) {
      const iso = new Date(minute * 60_000).toISOString();
      this.prefix = iso.slice(0, iso.lastIndexOf(':') + 1);
      this.minute = minute;
    }
    const ss = s - minute * 60;
    const text = this.prefix + (ss < 10 ? '0' : '') + ss;
    if (frac === 0) return text + 'Z';
    return `${text}.${fraction(frac)}Z`;
  }
}

/** Nine digits with trailing zeros trimmed (frac in 1..999999999). */
function fraction(frac: number): string {
  let digits = 9;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  const t = String(frac);
  return t.length === digits ? t : '0'.repeat(digits - t.length) + t;
}

/** Row time text for a result body: RFC 3339 in UTC, or with the TZ() zone's offset. */
export function rfc3339Formatter(zoneOffsetSec?: (ns: bigint) => number): (ns: bigint) => string {
  const cache = new Rfc3339Cache();
  if (!zoneOffsetSec) return (ns) => cache.format(ns);
  return (ns) => rfc3339NanoInZone(ns, zoneOffsetSec(ns));
}

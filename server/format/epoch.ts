/**
 * Row time formatting: RFC 3339 (default) or an integer in the `epoch` unit, truncated toward
 * zero like 1.x's integer division.
 */
import { NS } from '../../ql/index.js';

export type Epoch = 'ns' | 'u' | 'ms' | 's' | 'm' | 'h';

/** The epoch units are InfluxQL duration units (ql/ast/duration.ts NS). */
const DIVISORS: Readonly<Record<Epoch, bigint>> = NS;

/** Accepted `epoch` spellings (decisions.md); empty or absent = RFC 3339. */
export function parseEpoch(text: string | undefined): Epoch | undefined | 'invalid' {
  switch (text) {
    case undefined:
    case '':
      return undefined;
    case 'n':
    case 'ns':
      return 'ns';
    case 'u':
    case 'us':
    case 'µ':
      return 'u';
    case 'ms':
    case 's':
    case 'm':
    case 'h':
      return text;
    default:
      return 'invalid';
  }
}

export function formatTimeNs(ns: bigint, epoch: Epoch | undefined): string | bigint {
  if (epoch) return ns / DIVISORS[epoch];
  return rfc3339Nano(ns);
}

/** RFC 3339 in UTC with nanoseconds, trailing zeros trimmed. */
export function rfc3339Nano(ns: bigint): string {
  let sec = ns / 1_000_000_000n;
  let frac = ns - sec * 1_000_000_000n;
  if (frac < 0n) {
    frac += 1_000_000_000n;
    sec -= 1n;
  }
  const iso = new Date(Number(sec) * 1000).toISOString();
  const text = iso.slice(0, iso.lastIndexOf('.'));
  if (frac === 0n) return text + 'Z';
  return `${text}.${frac.toString().padStart(9, '0').replace(/0+$/, '')}Z`;
}

/** Same, with a zone offset (TZ() queries): `2024-03-09T01:00:00+01:00`. */
export function rfc3339NanoInZone(ns: bigint, offsetSec: number): string {
  if (offsetSec === 0) return rfc3339Nano(ns);
  const shifted = rfc3339Nano(ns + BigInt(offsetSec) * 1_000_000_000n).slice(0, -1);
  const sign = offsetSec < 0 ? '-' : '+';
  const a = Math.abs(offsetSec);
  const hh = String(Math.floor(a / 3600)).padStart(2, '0');
  const mm = String(Math.floor((a % 3600) / 60)).padStart(2, '0');
  return `${shifted}${sign}${hh}:${mm}`;
}

/**
 * Random GROUP BY time windows over days whose local length is not 24 hours: a database of its
 * own holds points around the daylight-saving changes of 2024 (New York in March and November,
 * Berlin and London in March and October, Sydney in April), and the queries ask for windows of
 * hours to weeks, with offsets, in those zones and in zones whose offset is not whole hours
 * (Kolkata, Kathmandu, St. John's), with bounds written as RFC 3339 with and without a zone
 * offset or as epoch literals. Every statement bounds both sides, so answers never depend on now().
 */
import type { Picker } from './pick.js';

const HOUR_MS = 3_600_000;
/** Three days around each change (UTC midnight before it), the data's days. */
const DAYS = ['2024-03-09', '2024-03-29', '2024-04-05', '2024-10-25', '2024-11-01'].map((d) => Date.parse(`${d}T00:00:00Z`));
const SPAN_MS = 72 * HOUR_MS;
const STEP_MS = 20 * 60_000;
const SITES = ['a', 'b'];
const ZONES = ['America/New_York', 'Europe/Berlin', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'UTC'];
const INTERVALS = ['20m', '30m', '1h', '90m', '2h', '3h', '6h', '12h', '1d', '2d', '1w'];
const OFFSETS = ['', '', '', '15m', '30m', '1h', '-1h', '2h', '5h', '-30m', '1d'];

/** The database's points: two sites every 20 minutes over each three-day span; site b skips some. */
export function calendarData(p: Picker): string {
  const lines: string[] = [];
  for (const day of DAYS) {
    for (let t = day; t < day + SPAN_MS; t += STEP_MS) {
      for (const site of SITES) {
        if (site === 'b' && p.chance(0.2)) continue;
        lines.push(`power,site=${site} value=${(p.r() * 100).toFixed(2)},n=${Math.floor(p.r() * 50)}i ${BigInt(t) * 1_000_000n}`);
      }
    }
  }
  return lines.join('\n') + '\n';
}

/** A bound as a client may write it: RFC 3339 in UTC, RFC 3339 with a zone offset, or epoch ms. */
function literal(p: Picker, ms: number): string {
  const k = p.r();
  if (k < 0.5) return `'${new Date(ms).toISOString().replace('.000Z', 'Z')}'`;
  if (k < 0.75) {
    const offMin = p.pick([-300, -240, 60, 120, 330, 600]);
    const local = new Date(ms + offMin * 60_000).toISOString().slice(0, 19);
    const sign = offMin < 0 ? '-' : '+';
    const abs = Math.abs(offMin);
    return `'${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}'`;
  }
  return `${ms}ms`;
}

function range(p: Picker): string {
  const day = p.pick(DAYS);
  const start = day + p.pick([0, 0, 6, 12, 23, 30]) * HOUR_MS + p.pick([0, 0, 0, 10, 45]) * 60_000;
  const end = Math.min(day + SPAN_MS + p.pick([0, 24]) * HOUR_MS, start + p.pick([6, 12, 24, 36, 48, 72]) * HOUR_MS);
  return `time >= ${literal(p, start)} AND time ${p.pick(['<', '<='])} ${literal(p, end)}`;
}

const CALLS = ['mean(value)', 'count(value)', 'sum(n)', 'max(value)', 'first(value)', 'last(n)', 'min(value), max(value)', 'spread(value)', 'median(n)'];

export function randomCalendarQuery(p: Picker): { q: string; params?: Record<string, string> } {
  const tz = ` tz('${p.pick(ZONES)}')`;
  const k = p.r();
  let q: string;
  if (k < 0.7) {
    const offset = p.pick(OFFSETS);
    const by = `GROUP BY time(${p.pick(INTERVALS)}${offset ? `, ${offset}` : ''})${p.chance(0.3) ? ', site' : ''}`;
    const fill = p.chance(0.4) ? ` fill(${p.pick(['null', 'none', '0', 'previous', 'linear'])})` : '';
    const call = p.chance(0.15) ? `${p.pick(['derivative', 'difference', 'cumulative_sum'])}(mean(value))` : p.pick(CALLS);
    q = `SELECT ${call} FROM power WHERE ${range(p)} ${by}${fill}${p.chance(0.15) ? ' ORDER BY time DESC' : ''}${p.chance(0.15) ? ` LIMIT ${p.pick([1, 3, 10])}` : ''}${tz}`;
  } else if (k < 0.85) {
    q = `SELECT value, site FROM power WHERE ${range(p)}${p.chance(0.3) ? ' ORDER BY time DESC' : ''} LIMIT ${p.pick([1, 5, 20])}${tz}`;
  } else {
    q = `SELECT ${p.pick(['first(value)', 'last(value)', 'max(value)', 'count(value)', 'mean(value)'])} FROM power WHERE ${range(p)}${p.chance(0.4) ? ' GROUP BY site' : ''}${tz}`;
  }
  const epoch = p.pick(['', '', '', 'ms', 's']);
  return { q, ...(epoch ? { params: { epoch } } : {}) };
}

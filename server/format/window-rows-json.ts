/**
 * The `values` of a series of GROUP BY time window rows (ql window-rows.ts) printed from its
 * columns: no row arrays and no bigint per row. The text is rowsJson's of the series' values
 * (window-rows-json.test.ts).
 *
 * Why pieces and one join, not `out +=`: every concatenation allocates (a cons string per
 * piece, ~13 KB per 60-row answer, the largest allocation of a small GROUP BY time query,
 * and its garbage collection ran inside the next requests). The pieces are mostly strings
 * that already exist: the cached row openings below and the small integers' texts.
 */
import type { WindowRows } from '../../ql/index.js';
import { commaCellJson } from './json-rows.js';
import { Rfc3339Cache } from './time-text.js';

const NS_PER_SEC = 1_000_000_000n;

/**
 * `["<RFC 3339 time>"` of whole seconds, by hour: dashboards and benchmarks ask for the same
 * recent hours over and over. Bounded: past MAX_HOURS hours the texts start over.
 */
const openings = new Map<number, string[]>();
const MAX_HOURS = 256;

function rowOpening(rfc: Rfc3339Cache, s: number): string {
  const hour = Math.floor(s / 3600);
  let texts = openings.get(hour);
  if (texts === undefined) {
    if (openings.size >= MAX_HOURS) openings.clear();
    openings.set(hour, (texts = []));
  }
  return (texts[s - hour * 3600] ??= '[' + JSON.stringify(rfc.second(s)));
}

/** `time`: the row time text of any other epoch or zone, as rowsJson is given it; `utc`: RFC 3339 in UTC. */
export function windowRowsJson(w: WindowRows, utc: boolean, time: (ns: bigint) => string | bigint): string {
  const { first, interval, windows, columns } = w;
  // In UTC with windows on whole seconds (nearly every GROUP BY time) a row's time is worked
  // out in seconds as a Number, exact for every int64 time.
  const seconds = utc && first % NS_PER_SEC === 0n && interval % NS_PER_SEC === 0n;
  const firstSec = seconds ? Number(first / NS_PER_SEC) : 0;
  const stepSec = seconds ? Number(interval / NS_PER_SEC) : 0;
  const rfc = seconds ? new Rfc3339Cache() : undefined;
  const parts = new Array<string>(windows.length * (columns.length + 3) + 2);
  let p = 0;
  parts[p++] = '[';
  for (let r = 0; r < windows.length; r++) {
    const k = windows[r]!;
    parts[p++] = r === 0 ? '' : ',';
    if (rfc) parts[p++] = rowOpening(rfc, firstSec + k * stepSec);
    else {
      const t = time(first + BigInt(k) * interval);
      parts[p++] = typeof t === 'string' ? '["' + t + '"' : '[' + t.toString();
    }
    for (let c = 0; c < columns.length; c++) parts[p++] = commaCellJson(columns[c]![k]!);
    parts[p++] = ']';
  }
  parts[p++] = ']';
  return parts.join('');
}

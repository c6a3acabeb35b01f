/**
 * The `values` of a series of GROUP BY time window rows (ql window-rows.ts) printed from its
 * columns: no row arrays and no bigint per row. In UTC RFC 3339 with windows on whole seconds
 * (nearly every GROUP BY time) a row's time is worked out in seconds as a Number, exact for
 * every int64 time. The text is rowsJson's of the series' values (window-rows-json.test.ts).
 */
import type { WindowRows } from '../../ql/index.js';
import { plainCellJson } from './json-rows.js';
import { Rfc3339Cache } from './time-text.js';

const NS_PER_SEC = 1_000_000_000n;

/** `time`: the row time text of any other epoch or zone, as rowsJson is given it; `utc`: RFC 3339 in UTC. */
export function windowRowsJson(w: WindowRows, utc: boolean, time: (ns: bigint) => string | bigint): string {
  const { first, interval, windows, columns } = w;
  const seconds = utc && first % NS_PER_SEC === 0n && interval % NS_PER_SEC === 0n;
  const firstSec = seconds ? Number(first / NS_PER_SEC) : 0;
  const stepSec = seconds ? Number(interval / NS_PER_SEC) : 0;
  const rfc = seconds ? new Rfc3339Cache() : undefined;
  let out = '[';
  for (let r = 0; r < windows.length; r++) {
    const k = windows[r]!;
    if (rfc) out += (r === 0 ? '["' : ',["') + rfc.second(firstSec + k * stepSec) + '"';
    else {
      const t = time(first + BigInt(k) * interval);
      out += (r === 0 ? '[' : ',[') + (typeof t === 'string' ? '"' + t + '"' : t.toString());
    }
    for (let c = 0; c < columns.length; c++) out += ',' + plainCellJson(columns[c]![k]!);
    out += ']';
  }
  return out + ']';
}

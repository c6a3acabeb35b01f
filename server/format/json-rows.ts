/**
 * The `values` array of a result series written straight to text: one pass over the rows,
 * no per-row value tree, times through a formatter that reuses the minute prefix. The output
 * is exactly what `stringify` makes of the same rows as a tree (compact form; format.test
 * checks both ways agree).
 */
import type { Cell } from '../../ql/index.js';
import { goFloatText } from './go-float.js';
import { goJsonString } from './go-json-string.js';

export function cellJson(c: Cell): string {
  switch (typeof c) {
    case 'number':
      return Number.isFinite(c) ? goFloatText(c) : 'null';
    case 'string':
      return goJsonString(c);
    case 'bigint':
      return c.toString();
    case 'boolean':
      return c ? 'true' : 'false';
    default:
      return 'null';
  }
}

/** Text of the small non-negative integers (counts, percentages, most metric values), bare and after a comma. */
const SMALL_INTS = Array.from({ length: 1024 }, (_, i) => String(i));
const COMMA_SMALL_INTS = SMALL_INTS.map((t) => ',' + t);

/**
 * `[[...],[...]]` of `rows`; when the first column is time, a bigint cell 0 goes through
 * `time` (RFC 3339 text is quoted, epoch integers are not), or is row r's text `time[r]`. Built by concatenation (no
 * per-row arrays to join). A run of string cells that are the same strings as the run above
 * it (the tag values of a raw row: the same on every row of a series) reuses the run's whole
 * text, so such a row costs one concatenation for all its tags.
 */
export function rowsJson(rows: readonly (readonly Cell[])[], timeFirst: boolean, time: ((ns: bigint) => string | bigint) | readonly string[]): string {
  const texts = typeof time === 'function' ? undefined : time;
  const timeOf = typeof time === 'function' ? time : undefined;
  const quoted = new Map<string, string>();
  const quote = (c: string): string => {
    let q = quoted.get(c);
    if (q === undefined) quoted.set(c, (q = goJsonString(c)));
    return q;
  };
  // Per column: the last row where a run of strings started there, where that run ended, and its text (leading comma included).
  const runRow: number[] = [];
  const runEnd: number[] = [];
  const runText: string[] = [];
  let above: readonly Cell[] | undefined;
  let out = '[';
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const n = row.length;
    // Appended to `out` piece by piece: a per-row string would be one more copy of every row.
    out += r === 0 ? '[' : ',[';
    let i = 0;
    if (n > 0 && timeFirst && typeof row[0] === 'bigint') {
      const t = texts ? texts[r]! : timeOf!(row[0]);
      out += typeof t === 'string' ? '"' + t + '"' : t.toString();
      i = 1;
    }
    while (i < n) {
      const c = row[i]!;
      if (typeof c === 'string') {
        let j = i + 1;
        while (j < n && typeof row[j] === 'string') j++;
        let same = above !== undefined && runRow[i] === r - 1 && runEnd[i] === j;
        for (let k = i; same && k < j; k++) same = above![k] === row[k];
        if (!same) {
          let text = i === 0 ? quote(c) : ',' + quote(c);
          for (let k = i + 1; k < j; k++) text += ',' + quote(row[k] as string);
          runEnd[i] = j;
          runText[i] = text;
        }
        runRow[i] = r;
        out += runText[i]!;
        i = j;
        continue;
      }
      // A float -0 passes `c >= 0` but prints `-0` (cellJson).
      if (typeof c === 'number' && c >= 0 && c < 1024 && (c | 0) === c && (c !== 0 || 1 / c > 0)) out += i === 0 ? SMALL_INTS[c]! : COMMA_SMALL_INTS[c]!;
      else out += i === 0 ? cellJson(c) : ',' + cellJson(c);
      i++;
    }
    above = row;
    out += ']';
  }
  return out + ']';
}

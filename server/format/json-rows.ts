/**
 * The `values` array of a result series written straight to text: one pass over the rows,
 * no per-row value tree, times through a formatter that reuses the minute prefix. The output
 * is exactly what `stringify` makes of the same rows as a tree (compact form; format.test
 * checks both ways agree).
 */
import type { Cell } from '../../ql/index.js';

export function cellJson(c: Cell): string {
  switch (typeof c) {
    case 'number':
      return Number.isFinite(c) ? String(c) : 'null';
    case 'string':
      return JSON.stringify(c);
    case 'bigint':
      return c.toString();
    case 'boolean':
      return c ? 'true' : 'false';
    default:
      return 'null';
  }
}

/** Text of the small non-negative integers (counts, percentages, most metric values). */
const SMALL_INTS = Array.from({ length: 1024 }, (_, i) => String(i));

/**
 * `[[...],[...]]` of `rows`; when the first column is time, a bigint cell 0 goes through
 * `time` (RFC 3339 text is quoted, epoch integers are not). Built by concatenation (no
 * per-row arrays to join), and a string cell that is the same string as the cell above it
 * (a tag value, on every row of a series) reuses that cell's text.
 */
export function rowsJson(rows: readonly (readonly Cell[])[], timeFirst: boolean, time: (ns: bigint) => string | bigint): string {
  const quoted = new Map<string, string>();
  const above: Cell[] = [];
  const aboveText: string[] = [];
  let out = '[';
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    let line = r === 0 ? '[' : ',[';
    for (let i = 0; i < row.length; i++) {
      const c = row[i]!;
      let text: string;
      if (typeof c === 'number') {
        text = c >= 0 && c < 1024 && (c | 0) === c ? SMALL_INTS[c]! : cellJson(c);
      } else if (typeof c === 'string') {
        if (above[i] === c) text = aboveText[i]!;
        else {
          let q = quoted.get(c);
          if (q === undefined) quoted.set(c, (q = JSON.stringify(c)));
          text = q;
          above[i] = c;
          aboveText[i] = q;
        }
      } else if (i === 0 && timeFirst && typeof c === 'bigint') {
        const t = time(c);
        text = typeof t === 'string' ? '"' + t + '"' : t.toString();
      } else text = cellJson(c);
      line += i === 0 ? text : ',' + text;
    }
    out += line + ']';
  }
  return out + ']';
}

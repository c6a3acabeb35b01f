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

/**
 * `[[...],[...]]` of `rows`; when the first column is time, a bigint cell 0 goes through
 * `time` (RFC 3339 text is quoted, epoch integers are not).
 */
export function rowsJson(rows: readonly (readonly Cell[])[], timeFirst: boolean, time: (ns: bigint) => string | bigint): string {
  // Tag values repeat on every row of a series: quote each distinct string once.
  const quoted = new Map<string, string>();
  const parts = new Array<string>(rows.length);
  const cells: string[] = [];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    cells.length = row.length;
    for (let i = 0; i < row.length; i++) {
      const c = row[i]!;
      if (typeof c === 'string') {
        let q = quoted.get(c);
        if (q === undefined) quoted.set(c, (q = JSON.stringify(c)));
        cells[i] = q;
      } else if (i === 0 && timeFirst && typeof c === 'bigint') {
        const t = time(c);
        cells[i] = typeof t === 'string' ? '"' + t + '"' : t.toString();
      } else cells[i] = cellJson(c);
    }
    parts[r] = '[' + cells.join(',') + ']';
  }
  return '[' + parts.join(',') + ']';
}

/**
 * 1.x's cursor gives each value a row reads and lacks its default: with fill(N), N cast to the
 * value's type (call-fill.ts: `max(i), s ... fill(3.5)` gives 3 for the integer max and 3.5 for
 * the string field beside it), with fill(previous) the value of the row before in output order.
 * Where a column is a lone call or field, filling its null cells is the same thing, and reaches
 * what the per-aggregate fill does not: the fields beside a selector (also at a selected point
 * that lacks them) and transforms without a value (`numbers`: the per-column cast N, else N as
 * written). Observed on influxd 1.6.7. A column `skip` marks is left alone: 1.x fills the values
 * an expression reads, so one that is null whatever it reads stays null.
 */
import type { FillOption } from '../ast/nodes.js';
import type { Cell } from '../result.js';

/** fill(N)'s N as written: an integer literal that fits a double prints as a JSON number. */
export function fillAsWritten(value: number | bigint): number | bigint {
  return typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

/**
 * Fill the null cells (not the time column) of one series' rows, given in output order (and
 * returned). `numbers`: per column, what fill(N) puts there (call-fill.ts cellFills), else N as written.
 */
export function fillNullCells(rows: Cell[][], fill: FillOption, skip: readonly boolean[] = [], numbers?: readonly Cell[]): Cell[][] {
  if (fill.mode === 'number') {
    const v = fillAsWritten(fill.value);
    for (const row of rows) for (let i = 1; i < row.length; i++) if (row[i] === null && skip[i - 1] !== true) row[i] = numbers?.[i - 1] ?? v;
  } else if (fill.mode === 'previous') {
    for (let r = 1; r < rows.length; r++) {
      const row = rows[r]!;
      const before = rows[r - 1]!;
      for (let i = 1; i < row.length; i++) if (row[i] === null) row[i] = before[i]!;
    }
  }
  return rows;
}

/**
 * fillNullCells over a series handed over in pieces (chunked raw answers): fill(previous) carries
 * the last row of one piece into the next. Undefined when the fill leaves cells alone.
 */
export function cellFiller(fill: FillOption, skip: readonly boolean[] = [], numbers?: readonly Cell[]): ((rows: Cell[][]) => void) | undefined {
  if (fill.mode !== 'number' && fill.mode !== 'previous') return undefined;
  let last: Cell[] | undefined;
  return (rows) => {
    if (rows.length === 0) return;
    if (fill.mode === 'previous' && last !== undefined) {
      const first = rows[0]!;
      for (let i = 1; i < first.length; i++) if (first[i] === null && skip[i - 1] !== true) first[i] = last[i]!;
    }
    fillNullCells(rows, fill, skip, numbers);
    last = rows[rows.length - 1];
  };
}

/**
 * Rows of GROUP BY time windows kept as columns (the dense path, exec/dense-windows.ts):
 * window numbers plus one value array per column, instead of a Cell[] and a bigint time per
 * row. A series made by windowSeries() turns them into `values` only when something reads
 * them (CSV, chunks, subqueries, INTO); the JSON writer prints them straight from the
 * columns (a small GROUP BY time answer spent as long making and printing its rows as
 * reading its data).
 */
import type { Cell, ResultSeries } from './result.js';

export interface WindowRows {
  /** Start of window 0. */
  readonly first: bigint;
  readonly interval: bigint;
  /** Window number of each row, in row order. */
  readonly windows: readonly number[];
  /** Per column after the time, its value per window number. */
  readonly columns: readonly (readonly Cell[])[];
}

/** The rows as result values: `[window start, column values...]`. */
export function windowRowValues(w: WindowRows): Cell[][] {
  const { first, interval, windows, columns } = w;
  const rows: Cell[][] = new Array<Cell[]>(windows.length);
  for (let r = 0; r < windows.length; r++) {
    const k = windows[r]!;
    const row = new Array<Cell>(columns.length + 1);
    row[0] = first + BigInt(k) * interval;
    for (let c = 0; c < columns.length; c++) row[c + 1] = columns[c]![k]!;
    rows[r] = row;
  }
  return rows;
}

/**
 * Only series made here carry their window rows; a copy (`{ ...s, values }`) is an ordinary
 * series, so a writer can never print columns that no longer match the values.
 */
const rowsOfSeries = new WeakMap<ResultSeries, WindowRows>();

/** A series whose `values` are made from `rows` when first read. */
export function windowSeries(head: Omit<ResultSeries, 'values'>, rows: WindowRows): ResultSeries {
  let values: Cell[][] | undefined;
  const s = Object.defineProperty({ ...head }, 'values', { enumerable: true, get: () => (values ??= windowRowValues(rows)) }) as ResultSeries;
  rowsOfSeries.set(s, rows);
  return s;
}

/** The window rows of a series made by windowSeries(), else undefined. */
export function windowRowsOf(s: ResultSeries): WindowRows | undefined {
  return rowsOfSeries.get(s);
}

/** Rows of a series, without making window rows' values. */
export function seriesRowCount(s: ResultSeries): number {
  return rowsOfSeries.get(s)?.windows.length ?? s.values.length;
}

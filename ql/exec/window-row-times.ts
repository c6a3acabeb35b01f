/**
 * The row times of a GROUP BY time answer, known as a grid: row r is window `windows[r]` (or
 * window r) of `first + k * interval`. The dense path (dense-windows.ts) knows this when it
 * makes the rows; the JSON writer (server/format/json.ts) then prints row times from it in
 * Number arithmetic instead of reading each row's bigint (a bigint step and comparison per row,
 * most of a small answer's formatting while V8 still interprets that code).
 *
 * Kept beside the rows array, keyed by its identity: a series whose values are another array
 * (a slice, OFFSET/LIMIT, pieces joined) has no grid and is printed from its cells as before.
 * Only rows in ascending window order are noted, and only by their maker, before anyone else
 * sees them: result rows are read-only (ResultSeries.values), so the grid stays true.
 */
import type { Cell } from '../result.js';

export interface WindowRowTimes {
  /** Start of window 0, ns. */
  readonly first: bigint;
  /** Window length, ns (> 0). */
  readonly interval: bigint;
  /** Per row, its window (ascending); undefined when row r is window r. */
  readonly windows: readonly number[] | undefined;
}

type Rows = readonly (readonly Cell[])[];

const times = new WeakMap<Rows, WindowRowTimes>();

/** Says that cell 0 of `rows[r]` is `first + (windows?.[r] ?? r) * interval` (and will stay so). */
export function noteWindowRowTimes(rows: Rows, grid: WindowRowTimes): void {
  times.set(rows, grid);
}

/** The grid noted for exactly this rows array, if any. */
export function windowRowTimesOf(rows: Rows): WindowRowTimes | undefined {
  return times.get(rows);
}

/**
 * How many rows of subquery results the process holds at once: a materialised inner result
 * holds all of its rows for the outer statement's whole run, a streamed one (subquery-stream.ts)
 * one inner series at a time. Counted where the rows are kept (subquery-rows.ts) and released
 * when the outer statement is done, so the peak is the memory bound issue #5 asks for, made
 * checkable without timing or RSS (the memory test reads it).
 */
let held = 0;
let peak = 0;

export function holdSubqueryRows(n: number): void {
  held += n;
  if (held > peak) peak = held;
}

export function releaseSubqueryRows(n: number): void {
  held -= n;
}

/** Rows held now and the most held at once since the last resetSubqueryRowsPeak(). */
export function subqueryRowsHeld(): { readonly now: number; readonly peak: number } {
  return { now: held, peak };
}

export function resetSubqueryRowsPeak(): void {
  peak = held;
}

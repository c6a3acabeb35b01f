/**
 * A shard's sources when their time ranges do not overlap (files flushed one after another,
 * which is how time-ordered writes land): the runs are read one after the other, each through
 * OneRun, instead of merged. No two runs can hold the same timestamp, so RunMerger's heads,
 * bounds, priorities and copy buffers have nothing to decide; a small query whose range spans
 * two files spent a tenth of its time in them. The rows are RunMerger's, in the same order;
 * batch boundaries may differ (a run's last batch is not topped up from the next run).
 */
import { OneRun } from './one-run.js';
import type { RunBlock, SortedRun } from './run.js';

/**
 * The runs in cursor order when each one's rows all come strictly before the next one's
 * (both bounds known from the index or the cache block); undefined when any two may overlap
 * or a bound is unknown, which is RunMerger's job.
 */
export function disjointInCursorOrder(runs: readonly SortedRun[], ascending: boolean): SortedRun[] | undefined {
  const s = ascending ? 1 : -1;
  for (const r of runs) if (r.startBound === undefined || r.endBound === undefined) return undefined;
  const ordered = inCursorOrder(runs, s);
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i - 1]!.endBound! * s >= ordered[i]!.startBound! * s) return undefined;
  }
  return ordered;
}

/**
 * The runs sorted by start bound in cursor order. A shard's files come oldest first, so they
 * usually are in order already (or strictly reversed, for a descending cursor): checked before
 * sorting, as this runs once per series-field and shard of every query.
 */
function inCursorOrder(runs: readonly SortedRun[], s: number): SortedRun[] {
  let forward = true;
  let backward = true;
  for (let i = 1; i < runs.length; i++) {
    const d = (runs[i]!.startBound! - runs[i - 1]!.startBound!) * s;
    if (d < 0) forward = false;
    if (d >= 0) backward = false;
  }
  if (forward) return runs.slice();
  if (backward) return runs.slice().reverse();
  return [...runs].sort((a, b) => (a.startBound! - b.startBound!) * s);
}

export class RunChain {
  private k = 0;
  private current: OneRun | undefined;

  /** `runs`: disjoint, in cursor order (disjointInCursorOrder). */
  constructor(private readonly runs: readonly SortedRun[]) {
    this.current = runs.length > 0 ? new OneRun(runs[0]!) : undefined;
  }

  /** The next batch, null at the end, undefined when a block must be read first (then call next()). */
  nextNow(): RunBlock | null | undefined {
    while (this.current) {
      const b = this.current.nextNow();
      if (b !== null) return b;
      this.advance();
    }
    return null;
  }

  async next(): Promise<RunBlock | null> {
    while (this.current) {
      const b = await this.current.next();
      if (b) return b;
      this.advance();
    }
    return null;
  }

  close(): void {
    this.current = undefined;
    for (const r of this.runs) r.close();
  }

  /** The current run is used up: close it (a file's snapshot pin stays with the shard) and start the next. */
  private advance(): void {
    this.current!.close();
    this.k++;
    this.current = this.k < this.runs.length ? new OneRun(this.runs[this.k]!) : undefined;
  }
}

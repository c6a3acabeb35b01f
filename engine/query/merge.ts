/**
 * Streaming k-way merge of the SortedRuns of one shard into batches of at most BATCH_SIZE
 * rows. When one run's rows precede every other run's next row they are copied in bulk (or
 * handed out as views when they fill a batch on their own); only equal timestamps go row by
 * row, where the run with the highest priority (the newest write) wins.
 *
 * Laziness: a run that announces a `startBound` is opened (its first block read and decoded)
 * only when the merge reaches that bound, and a batch is returned as soon as producing more
 * would need another block read. So `ORDER BY time DESC LIMIT 1` over a shard of several
 * time-disjoint files decodes one block, not the head block of every file, and a consumer
 * that stops early never pays for the blocks after the one it stopped in.
 *
 * A whole stored block (stats-block.ts) that comes strictly before every other head and every
 * unopened run is returned as it is, undecoded with its stats; until a head has started such a
 * block, its position is the block's first offset from the index, so the merge decodes nothing
 * to decide that.
 */
import type { FieldType } from '../point.js';
import { ColumnBuilder, sliceColumn } from './column-builder.js';
import { BATCH_SIZE } from './cursor.js';
import { rowCount, type RunBlock, type SortedRun } from './run.js';

interface Head {
  readonly run: SortedRun;
  block: RunBlock;
  i: number;
}

export class RunMerger {
  /** Runs with a current block that still has rows. */
  private readonly heads: Head[] = [];
  /** Runs whose block is used up: the next block is read at the start of a batch. */
  private readonly stale: SortedRun[] = [];
  /** Runs not opened yet, by startBound in cursor order. */
  private readonly pending: SortedRun[];
  /** Output buffers, made on the first batch that needs copying (most cursors never do). */
  private copyBuffers: { offsets: Float64Array; values: ColumnBuilder } | undefined;
  private readonly sign: number;

  constructor(
    private readonly runs: SortedRun[],
    private readonly type: FieldType,
    ascending: boolean,
  ) {
    this.sign = ascending ? 1 : -1;
    const s = this.sign;
    // Runs without a bound are opened in the first round: give them the earliest key.
    const key = (r: SortedRun) => (r.startBound === undefined ? -Infinity : r.startBound * s);
    this.pending = runs.length < 2 ? [...runs] : [...runs].sort((a, b) => key(a) - key(b));
  }

  /** Cursor-order key of the next pending run (Infinity: none). */
  private pendingKey(): number {
    const p = this.pending[0];
    if (!p) return Infinity;
    return p.startBound === undefined ? -Infinity : p.startBound * this.sign;
  }

  /**
   * Reads the next block of every stale run and opens the pending runs the merge has reached,
   * as far as those blocks are in memory; false when a run must read first (stale[0] or
   * pending[0], still in its list; the runs before it are opened).
   */
  private advanceNow(): boolean {
    while (this.stale.length > 0) {
      if (!this.openNow(this.stale[0]!)) return false;
      this.stale.shift();
    }
    while (this.pending.length > 0 && this.pendingKey() <= this.minHeadKey()) {
      if (!this.openNow(this.pending[0]!)) return false;
      this.pending.shift();
    }
    return true;
  }

  /** advanceNow, reading the blocks it stops at. */
  private async advance(): Promise<void> {
    while (!this.advanceNow()) {
      // advanceNow stopped at the first run of this list; nothing else touches the lists meanwhile.
      const list = this.stale.length > 0 ? this.stale : this.pending;
      const run = list[0]!;
      const block = await nextNonEmpty(run);
      list.shift();
      if (block) this.heads.push({ run, block, i: 0 });
    }
  }

  /** Makes `run` a head if its next block is in memory (or drops it when exhausted); false when it must read. */
  private openNow(run: SortedRun): boolean {
    const block = nextNonEmptyNow(run);
    if (block === undefined) return false;
    if (block) this.heads.push({ run, block, i: 0 });
    return true;
  }

  private minHeadKey(): number {
    let k = Infinity;
    for (const h of this.heads) k = Math.min(k, headKey(h, this.sign));
    return k;
  }

  /** Moves `h` to the stale list when its block is used up. */
  private retireIfDone(h: Head): void {
    if (h.i < rowCount(h.block)) return;
    this.heads.splice(this.heads.indexOf(h), 1);
    this.stale.push(h.run);
  }

  /** Next merged batch (views valid until the following call), or null. */
  async next(): Promise<RunBlock | null> {
    for (;;) {
      const b = this.nextNow();
      if (b !== undefined) return b;
      await this.advance();
    }
  }

  /** next()'s answer when no run has to read a block for it; undefined (nothing consumed) when one does. */
  nextNow(): RunBlock | null | undefined {
    const heads = this.heads;
    let out: Float64Array | undefined;
    let vals: ColumnBuilder | undefined;
    const buffers = () => {
      if (!this.copyBuffers) this.copyBuffers = { offsets: new Float64Array(BATCH_SIZE), values: new ColumnBuilder(this.type, BATCH_SIZE) };
      else this.copyBuffers.values.reset();
      return this.copyBuffers;
    };
    let n = 0;
    const s = this.sign;
    while (n < BATCH_SIZE) {
      // The head whose current time comes first; among equal times, the highest priority.
      let best: Head | undefined;
      let bestKey = Infinity;
      for (const h of heads) {
        const k = headKey(h, s);
        if (k < bestKey || (k === bestKey && h.run.priority > best!.run.priority)) {
          best = h;
          bestKey = k;
        }
      }
      const pendingKey = this.pendingKey();
      if (this.stale.length > 0 || pendingKey <= bestKey) {
        if (n > 0) break;
        if (this.stale.length === 0 && this.pending.length === 0) break;
        if (!this.advanceNow()) return undefined;
        continue;
      }
      if (!best) break;
      let bound = pendingKey;
      for (const h of heads) if (h !== best) bound = Math.min(bound, headKey(h, s));
      const stats = best.i === 0 ? best.block.stats : undefined;
      if (stats && stats.lastOffset * s < bound) {
        // A whole stored block nothing else overlaps: handed out undecoded, in a batch of its own.
        if (n > 0) break;
        best.i = stats.count;
        this.retireIfDone(best);
        return best.block;
      }
      if (bestKey < bound) {
        // Bulk: rows of `best` strictly before every other head and every unopened run.
        const offs = best.block.offsets;
        const from = best.i;
        let end = from + 1;
        const limit = Math.min(offs.length, from + (BATCH_SIZE - n));
        while (end < limit && offs[end]! * s < bound) end++;
        best.i = end;
        this.retireIfDone(best);
        if (n === 0 && (end === offs.length || end === limit || this.stale.length > 0)) {
          return { offsets: offs.subarray(from, end), column: sliceColumn(best.block.column, from, end) };
        }
        if (!out) ({ offsets: out, values: vals } = buffers());
        out.set(offs.subarray(from, end), n);
        vals!.appendRange(best.block.column, from, end);
        n += end - from;
      } else {
        if (!out) ({ offsets: out, values: vals } = buffers());
        out[n] = bestKey * s;
        vals!.appendRange(best.block.column, best.i, best.i + 1);
        n++;
        for (const h of [...heads]) {
          if (headKey(h, s) === bestKey) {
            h.i++;
            this.retireIfDone(h);
          }
        }
      }
    }
    if (n === 0 || !out) return null;
    return { offsets: out.subarray(0, n), column: vals!.column() };
  }

  close(): void {
    for (const r of this.runs) r.close();
  }
}

/** The run's next block with rows (also used by one-run.ts). */
export async function nextNonEmpty(run: SortedRun): Promise<RunBlock | null> {
  for (;;) {
    const b = await run.next();
    if (!b || rowCount(b) > 0) return b;
  }
}

/** nextNonEmpty without waiting: undefined when the run must read (empty blocks before that are gone, as they would be). */
export function nextNonEmptyNow(run: SortedRun): RunBlock | null | undefined {
  for (;;) {
    const b = run.nextNow?.();
    if (b === undefined || !b || rowCount(b) > 0) return b;
  }
}

/** Cursor-order key of a head's next row: a whole stored block not started yet is keyed by its index stats. */
function headKey(h: Head, sign: number): number {
  const stats = h.block.stats;
  return (stats && h.i === 0 ? stats.firstOffset : h.block.offsets[h.i]!) * sign;
}

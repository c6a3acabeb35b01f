/**
 * Streaming k-way merge of the SortedRuns of one shard into batches of at most BATCH_SIZE
 * rows. Memory: one block per run plus the output batch. When one run's rows precede every
 * other run's next row they are copied in bulk; only equal timestamps go row by row, where
 * the run with the highest priority (the newest write) wins. A whole stored block that no
 * other run overlaps is returned as it is, undecoded with its stats (stats-block.ts).
 */
import type { FieldType, ValueColumn } from '../point.js';
import { ColumnBuilder } from './column-builder.js';
import { BATCH_SIZE } from './cursor.js';
import { rowCount, type RunBlock, type SortedRun } from './run.js';
import { passThroughHead } from './stats-block.js';

interface Head {
  readonly run: SortedRun;
  block: RunBlock;
  i: number;
}

export class RunMerger {
  private heads: Head[] | undefined;
  private readonly offsets = new Float64Array(BATCH_SIZE);
  private readonly values: ColumnBuilder;
  private readonly sign: number;

  constructor(
    private readonly runs: SortedRun[],
    type: FieldType,
    ascending: boolean,
  ) {
    this.values = new ColumnBuilder(type, BATCH_SIZE);
    this.sign = ascending ? 1 : -1;
  }

  private async init(): Promise<Head[]> {
    const heads: Head[] = [];
    for (const run of this.runs) {
      const block = await nextNonEmpty(run);
      if (block) heads.push({ run, block, i: 0 });
    }
    return heads;
  }

  /** Advance a head past its block; drops it when its run is exhausted. */
  private async refill(heads: Head[], h: Head): Promise<void> {
    if (h.i < rowCount(h.block)) return;
    const block = await nextNonEmpty(h.run);
    if (block) {
      h.block = block;
      h.i = 0;
    } else {
      heads.splice(heads.indexOf(h), 1);
    }
  }

  /** Next merged batch (views valid until the following call), or null. */
  async next(): Promise<RunBlock | null> {
    const heads = (this.heads ??= await this.init());
    const whole = passThroughHead(heads, this.sign);
    if (whole) {
      whole.i = rowCount(whole.block);
      const block = whole.block;
      await this.refill(heads, whole);
      return block;
    }
    const out = this.offsets;
    const vals = this.values;
    vals.reset();
    let n = 0;
    const s = this.sign;
    while (n < BATCH_SIZE && heads.length > 0) {
      if (n > 0 && passThroughHead(heads, s)) break; // end this batch; the whole block goes next
      if (heads.length === 1) {
        const h = heads[0]!;
        const k = Math.min(h.block.offsets.length - h.i, BATCH_SIZE - n);
        out.set(h.block.offsets.subarray(h.i, h.i + k), n);
        vals.appendRange(h.block.column, h.i, h.i + k);
        n += k;
        h.i += k;
        await this.refill(heads, h);
        continue;
      }
      // The head whose current time comes first; among equal times, the highest priority.
      let best = heads[0]!;
      for (let j = 1; j < heads.length; j++) {
        const h = heads[j]!;
        const d = (h.block.offsets[h.i]! - best.block.offsets[best.i]!) * s;
        if (d < 0 || (d === 0 && h.run.priority > best.run.priority)) best = h;
      }
      const t = best.block.offsets[best.i]!;
      let bound = Infinity;
      for (const h of heads) if (h !== best) bound = Math.min(bound, h.block.offsets[h.i]! * s);
      if (t * s < bound) {
        // Bulk: rows of `best` strictly before every other head.
        const offs = best.block.offsets;
        let end = best.i + 1;
        const limit = Math.min(offs.length, best.i + (BATCH_SIZE - n));
        while (end < limit && offs[end]! * s < bound) end++;
        out.set(offs.subarray(best.i, end), n);
        vals.appendRange(best.block.column, best.i, end);
        n += end - best.i;
        best.i = end;
        await this.refill(heads, best);
      } else {
        out[n] = t;
        vals.appendRange(best.block.column, best.i, best.i + 1);
        n++;
        for (const h of [...heads]) {
          if (h.block.offsets[h.i] === t) {
            h.i++;
            await this.refill(heads, h);
          }
        }
      }
    }
    if (n === 0) return null;
    return { offsets: out.subarray(0, n), column: vals.column() };
  }

  close(): void {
    for (const r of this.runs) r.close();
  }
}

async function nextNonEmpty(run: SortedRun): Promise<RunBlock | null> {
  for (;;) {
    const b = await run.next();
    if (!b || rowCount(b) > 0) return b;
  }
}

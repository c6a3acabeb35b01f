/**
 * A shard's blocks when it has a single source for the series-field (one TSM file, or only a
 * cache): what RunMerger hands out for one run, without its heads, bounds and copy buffers.
 * Most small queries read one run per shard, and the merger's bookkeeping per cursor was a
 * visible part of their cost. Same batches as RunMerger over [run]: empty blocks skipped, a
 * stored block with stats passed whole, other blocks cut into batches of at most BATCH_SIZE
 * rows (views, no copies).
 */
import { sliceColumn } from './column-builder.js';
import { BATCH_SIZE } from './cursor.js';
import { nextNonEmpty, nextNonEmptyNow } from './merge.js';
import type { RunBlock, SortedRun } from './run.js';

export class OneRun {
  /** The block being cut into batches, and the first row not yet handed out. */
  private block: RunBlock | undefined;
  private i = 0;

  constructor(private readonly run: SortedRun) {}

  /** The next batch, null at the end, undefined when a block must be read first (then call next()). */
  nextNow(): RunBlock | null | undefined {
    if (this.block === undefined) {
      const b = nextNonEmptyNow(this.run);
      if (!b) return b;
      this.block = b;
      this.i = 0;
    }
    return this.take(this.block);
  }

  async next(): Promise<RunBlock | null> {
    const now = this.nextNow();
    if (now !== undefined) return now;
    const b = await nextNonEmpty(this.run);
    if (!b) return null;
    this.block = b;
    this.i = 0;
    return this.take(b);
  }

  close(): void {
    this.block = undefined;
    this.run.close();
  }

  private take(b: RunBlock): RunBlock {
    // A stored block with stats goes out whole before anything reads `offsets`, which would
    // decode it (StatsBlock): a count or first/last over whole blocks never decodes them.
    if (b.stats) {
      this.block = undefined;
      return b;
    }
    const n = b.offsets.length;
    if (this.i === 0 && n <= BATCH_SIZE) {
      this.block = undefined;
      return b;
    }
    const from = this.i;
    const end = Math.min(n, from + BATCH_SIZE);
    this.i = end;
    if (end === n) this.block = undefined;
    return { offsets: b.offsets.subarray(from, end), column: sliceColumn(b.column, from, end) };
  }
}

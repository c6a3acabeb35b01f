/**
 * A SortedRun over one key of one TSM file: reads the blocks overlapping the range lazily
 * (verified by checksum in the reader, cached in the block cache), decodes them relative to
 * the shard base and clips them. A damaged block throws CorruptionError: it is reported,
 * never served as data. A block lying wholly inside the range and untouched by tombstones is
 * returned undecoded as a StatsBlock (its index stats, lazy decode); RunMerger decides
 * whether it can pass through whole.
 */
import { decodeBlock } from '../encoding/block.js';
import type { BlockEntry } from '../tsm/block-index.js';
import type { TsmReader } from '../tsm/reader.js';
import { clipBlock, type RunBlock, type SortedRun } from './run.js';
import { ColumnBuilder } from './column-builder.js';
import { BATCH_SIZE } from './cursor.js';
import { StatsBlock } from './stats-block.js';

/** Rows of `block` outside every hidden range. */
function dropHidden(block: RunBlock, hidden: readonly (readonly [number, number])[]): RunBlock {
  const offs = block.offsets;
  const keep: number[] = [];
  for (let i = 0; i < offs.length; i++) {
    const t = offs[i]!;
    let hit = false;
    for (const [lo, hi] of hidden) if (t >= lo && t <= hi) hit = true;
    if (!hit) keep.push(i);
  }
  if (keep.length === offs.length) return block;
  const b = new ColumnBuilder(block.column.type, Math.max(1, keep.length));
  const offsets = new Float64Array(keep.length);
  keep.forEach((i, k) => {
    offsets[k] = offs[i]!;
    b.appendRange(block.column, i, i + 1);
  });
  return { offsets, column: b.column() };
}

export class TsmRun implements SortedRun {
  private readonly entries: BlockEntry[];
  private i = 0;

  constructor(
    private readonly reader: TsmReader,
    private readonly key: string,
    private readonly baseNs: bigint,
    private readonly minOff: number,
    private readonly maxOff: number,
    private readonly ascending: boolean,
    readonly priority: number,
    /** Hidden [min, max] offset ranges (tombstones), relative to baseNs. */
    private readonly hidden: readonly (readonly [number, number])[] = [],
  ) {
    const entries = reader.entriesInRange(key, baseNs + BigInt(minOff), baseNs + BigInt(maxOff));
    this.entries = ascending ? entries : entries.reverse();
  }

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  async next(): Promise<RunBlock | null> {
    while (this.i < this.entries.length) {
      const entry = this.entries[this.i++]!;
      const bytes = await this.reader.readBlock(this.key, entry);
      if (this.isWhole(entry)) return new StatsBlock(this.baseNs, bytes, this.ascending, StatsBlock.statsOf(entry, this.baseNs, this.ascending), this.reader.path);
      const clipped = clipBlock(decodeBlock(bytes, this.baseNs), this.minOff, this.maxOff, this.ascending);
      const visible = clipped && this.hidden.length > 0 ? dropHidden(clipped, this.hidden) : clipped;
      if (visible && visible.offsets.length > 0) return visible;
    }
    return null;
  }

  close(): void {
    this.i = this.entries.length;
  }

  /** Inside the range, no hidden row in its time span, and small enough for one batch. */
  private isWhole(entry: BlockEntry): boolean {
    if (entry.count > BATCH_SIZE) return false;
    const first = Number(entry.minTime - this.baseNs);
    const last = Number(entry.maxTime - this.baseNs);
    if (first < this.minOff || last > this.maxOff) return false;
    for (const [lo, hi] of this.hidden) if (lo <= last && hi >= first) return false;
    return true;
  }
}

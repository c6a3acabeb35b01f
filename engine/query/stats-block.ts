/**
 * A whole stored block served as one cursor batch with its statistics (cursor.ts, `stats`):
 * the payload is already read and checksum-verified, but decoded only when a consumer reads
 * `offsets` (timestamps only) or `column` (the whole block). A stats-aware aggregate thus
 * skips decoding entirely; every other consumer sees an ordinary batch.
 */
import { CorruptionError } from '../errors.js';
import { decodeBlockTimes, decodeBlockValues } from '../encoding/block.js';
import type { ValueColumn } from '../point.js';
import type { BlockEntry } from '../tsm/block-index.js';
import type { Batch, BatchStats } from './cursor.js';
import type { RunBlock } from './run.js';
import { reverseOwnedColumn } from './column-builder.js';

export class StatsBlock implements Batch {
  private times: Float64Array | undefined;
  private values: ValueColumn | undefined;

  constructor(
    readonly base: bigint,
    private readonly payload: Uint8Array,
    private readonly ascending: boolean,
    readonly stats: BatchStats,
    /** For error reports. */
    private readonly where: string,
  ) {}

  /** Batch statistics of a whole block from its index entry; positions in batch order. */
  static statsOf(entry: BlockEntry, base: bigint, ascending: boolean): BatchStats {
    const first = Number(entry.minTime - base);
    const last = Number(entry.maxTime - base);
    const n = entry.count;
    const s = entry.stats;
    const row = (i: number) => (ascending ? i : n - 1 - i);
    const extent = ascending ? { firstOffset: first, lastOffset: last } : { firstOffset: last, lastOffset: first };
    if (!s) return { count: n, ...extent };
    return { count: n, ...extent, min: s.min, max: s.max, minRow: row(s.minIndex), maxRow: row(s.maxIndex), sum: s.sum };
  }

  get offsets(): Float64Array {
    if (!this.times) {
      const t = this.check(decodeBlockTimes(this.payload, this.base));
      this.times = this.ascending ? t : t.reverse();
    }
    return this.times;
  }

  get column(): ValueColumn {
    if (!this.values) {
      // Only the values: the timestamps are decoded when `offsets` is read, which a reader of
      // the first row alone never does (it has the stats' first offset). The block's count is
      // checked against the index entry's either way (decodeBlockValues throws on a mismatch).
      const column = decodeBlockValues(this.payload, this.stats.count);
      // Freshly decoded, owned by this block: reversed in place, not copied.
      this.values = this.ascending ? column : reverseOwnedColumn(column);
    }
    return this.values;
  }

  /** The index and the block must agree on the row count, or the stats would lie. */
  private check(offsets: Float64Array): Float64Array {
    if (offsets.length !== this.stats.count) {
      throw new CorruptionError(this.where, 0, `block holds ${offsets.length} values, its index entry says ${this.stats.count}`);
    }
    return offsets;
  }
}

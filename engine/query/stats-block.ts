/**
 * A whole stored block served as one cursor batch with its statistics (cursor.ts, `stats`):
 * the payload is already read and checksum-verified, but decoded only when a consumer reads
 * `offsets` (timestamps only) or `column` (the whole block). A stats-aware aggregate thus
 * skips decoding entirely; every other consumer sees an ordinary batch.
 *
 * With `kept` (the payload is the block cache's), a consumer that needs the timestamps gets the
 * whole block decoded once and kept there (decoded-blocks.ts), so a small query repeated over
 * the same range (a dashboard panel over a few whole blocks) does not decode them on every
 * request; a consumer of the values alone still decodes only those and keeps nothing.
 */
import { CorruptionError } from '../errors.js';
import { decodeBlock, decodeBlockLastValue, decodeBlockTimes, decodeBlockValues } from '../encoding/block.js';
import type { ValueColumn } from '../point.js';
import type { BlockEntry } from '../tsm/block-index.js';
import type { Batch, BatchStats } from './cursor.js';
import type { RunBlock } from './run.js';
import { copyColumn, reverseOwnedColumn } from './column-builder.js';
import type { DecodedBlock, DecodedBlocks } from './decoded-blocks.js';

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
    /** Where the whole decoded block is kept, when the payload is the block cache's. */
    private readonly kept?: DecodedBlocks,
  ) {}

  /** Batch statistics of a whole block from its index entry; positions in batch order. */
  static statsOf(entry: BlockEntry, base: bigint, ascending: boolean): BatchStats {
    const first = Number(entry.minTime - base);
    const last = Number(entry.maxTime - base);
    const n = entry.count;
    const s = entry.stats;
    // Object literals of one shape each (no spread, no closure: one of these per block per cursor).
    const firstOffset = ascending ? first : last;
    const lastOffset = ascending ? last : first;
    if (!s) return { count: n, firstOffset, lastOffset };
    const minRow = ascending ? s.minIndex : n - 1 - s.minIndex;
    const maxRow = ascending ? s.maxIndex : n - 1 - s.maxIndex;
    return { count: n, firstOffset, lastOffset, min: s.min, max: s.max, minRow, maxRow, sum: s.sum };
  }

  get offsets(): Float64Array {
    if (!this.times) {
      const whole = this.keptBlock(true);
      // Kept arrays are shared (read-only): ascending batches are views of them, descending ones copies.
      if (whole) this.times = this.ascending ? whole.offsets : whole.offsets.slice().reverse();
      else {
        const t = this.check(decodeBlockTimes(this.payload, this.base));
        this.times = this.ascending ? t : t.reverse();
      }
    }
    return this.times;
  }

  get column(): ValueColumn {
    if (!this.values) {
      const whole = this.keptBlock(false);
      if (whole) {
        this.values = this.ascending ? whole.column : reverseOwnedColumn(copyColumn(whole.column, 0, this.stats.count));
        return this.values;
      }
      // Only the values: the timestamps are decoded when `offsets` is read, which a reader of
      // the first row alone never does (it has the stats' first offset). The block's count is
      // checked against the index entry's either way (decodeBlockValues throws on a mismatch).
      const column = decodeBlockValues(this.payload, this.stats.count);
      // Freshly decoded, owned by this block: reversed in place, not copied.
      this.values = this.ascending ? column : reverseOwnedColumn(column);
    }
    return this.values;
  }

  /**
   * A column whose element 0 is the batch's first row (cursor.ts `head`): the decoded column
   * when there is one, else only that value: the first (ascending; integer blocks stop
   * there) or, descending, the block's last (integer blocks add up their deltas without
   * storing them), kept with the decoded blocks when the payload is the block cache's
   * (decoded-blocks.ts lastValue: a few bytes, where the whole block is not worth keeping).
   */
  head(): ValueColumn {
    if (this.values || this.keptBlock(false)) return this.column;
    if (this.ascending) return decodeBlockValues(this.payload, this.stats.count, undefined, 1);
    let last = this.kept?.lastValue(this.payload);
    if (!last) {
      last = decodeBlockLastValue(this.payload, this.stats.count);
      this.kept?.setLastValue(this.payload, last);
    }
    return last;
  }

  /** The kept decoded block; with `decode`, decoded (and checked) and kept when missing. */
  private keptBlock(decode: boolean): DecodedBlock | undefined {
    if (!this.kept) return undefined;
    let whole = this.kept.get(this.payload, this.base);
    if (!whole && decode) {
      whole = decodeBlock(this.payload, this.base);
      this.check(whole.offsets);
      this.kept.set(this.payload, this.base, whole);
    }
    return whole;
  }

  /** The index and the block must agree on the row count, or the stats would lie. */
  private check(offsets: Float64Array): Float64Array {
    if (offsets.length !== this.stats.count) {
      throw new CorruptionError(this.where, 0, `block holds ${offsets.length} values, its index entry says ${this.stats.count}`);
    }
    return offsets;
  }
}

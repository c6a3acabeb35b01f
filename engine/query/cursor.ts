/**
 * THE seam between storage and the query planner.
 *
 * A Cursor streams one series-field's values over an inclusive time range, merged across
 * the cache, frozen snapshots and TSM files of every shard, with deleted rows hidden and
 * duplicates resolved (last write wins).
 *
 * Contract:
 * - `next()` resolves to the next non-empty Batch, or null when exhausted; after null it keeps
 *   returning null. Batches arrive in the requested order (ascending or descending time) and
 *   never overlap; within a batch, offsets are strictly monotonic in that order.
 * - Time is `base + offsets[i]` nanoseconds: `base` is a bigint per batch (it changes between
 *   shards), offsets are exact integers in a Float64Array, so no BigInt is made per value.
 * - Buffers belong to the cursor and are valid until the next `next()` call: copy what you keep.
 * - `stats` is present when the batch is one whole stored block that no other source overlaps
 *   and no delete touches (stats-block.ts). Such a batch holds exactly `stats.count` rows and
 *   decodes lazily: reading `offsets` decodes the timestamps only, reading `column` decodes the
 *   block; a consumer that can use the stats (count/min/max/sum, the time extent) need not
 *   touch either. Reading them is always correct, so stats-unaware consumers work unchanged.
 * - `close()` releases file references; it is idempotent and may be called before exhaustion.
 */
import type { FieldType, ValueColumn } from '../point.js';

export interface BatchStats {
  /** Rows in the batch. */
  readonly count: number;
  /** Offsets (from `base`) of the batch's first and last rows in batch order: its time extent. */
  readonly firstOffset: number;
  readonly lastOffset: number;
  /** Smallest / largest value (float, integer, unsigned fields; block-stats.ts says when). */
  readonly min?: number;
  readonly max?: number;
  /** Rows (batch positions) of the earliest minimum / maximum; set together with min / max. */
  readonly minRow?: number;
  readonly maxRow?: number;
  /** Exact sum (integer and unsigned fields only). */
  readonly sum?: number;
}

export interface Batch {
  readonly base: bigint;
  readonly offsets: Float64Array;
  readonly column: ValueColumn;
  readonly stats?: BatchStats;
  /**
   * Optional (stats batches): a column whose element 0 is the batch's first row, decoding no
   * more of the block than that needs where the encoding allows. For a reader that takes one
   * row of a batch (ORDER BY time DESC LIMIT 1): reading `column` would decode all of it.
   */
  head?(): ValueColumn;
}

export interface CursorRequest {
  readonly db: string;
  readonly rp: string;
  readonly measurement: string;
  /** Canonical series key (engine/point.ts). */
  readonly seriesKey: string;
  readonly field: string;
  /** Inclusive bounds in ns. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly ascending: boolean;
  /**
   * Only the shards starting at these seconds (all when absent): 1.x pages SLIMIT/SOFFSET in
   * each shard on its own, so a series answers only its data of the shards that paged it.
   */
  readonly shardStarts?: ReadonlySet<number>;
}

export interface Cursor {
  /** Type of the field, or undefined when the field has no data in range. */
  readonly type: FieldType | undefined;
  next(): Promise<Batch | null>;
  /**
   * The next batch when it is there without waiting (every block it needs is in memory), as
   * next() would answer; undefined when producing it needs a read: then nothing was consumed
   * and the caller uses next(). Optional: a cursor without it is read with next() alone. Why:
   * a small query's batches come from cached blocks, and a promise per layer per batch (five
   * layers from TsmRun to the consumer) cost more than the batch itself.
   */
  nextNow?(): Batch | null | undefined;
  close(): void;
}

/** nextNow's batch when there is one, else next()'s promise (callers await only a promise). */
export function nextBatch(c: Cursor): Batch | null | Promise<Batch | null> {
  const b = c.nextNow?.();
  return b === undefined ? c.next() : b;
}

/** Maximum values per batch produced by merging cursors. */
export const BATCH_SIZE = 1000;

/** A cursor over nothing. */
export const EMPTY_CURSOR: Cursor = {
  type: undefined,
  next: () => Promise.resolve(null),
  nextNow: () => null,
  close: () => undefined,
};

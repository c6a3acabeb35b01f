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
 * - `stats` is present when the batch's count/min/max/sum came for free (no decoding needed
 *   for them); consumers may use them instead of scanning values.
 * - `close()` releases file references; it is idempotent and may be called before exhaustion.
 */
import type { FieldType, ValueColumn } from '../point.js';

export interface BatchStats {
  readonly count: number;
  readonly min?: number;
  readonly max?: number;
  readonly sum?: number;
}

export interface Batch {
  readonly base: bigint;
  readonly offsets: Float64Array;
  readonly column: ValueColumn;
  readonly stats?: BatchStats;
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
}

export interface Cursor {
  /** Type of the field, or undefined when the field has no data in range. */
  readonly type: FieldType | undefined;
  next(): Promise<Batch | null>;
  close(): void;
}

/** Maximum values per batch produced by merging cursors. */
export const BATCH_SIZE = 1000;

/** A cursor over nothing. */
export const EMPTY_CURSOR: Cursor = {
  type: undefined,
  next: () => Promise.resolve(null),
  close: () => undefined,
};

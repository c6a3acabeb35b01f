/**
 * A SortedRun is one source of a series-field inside a shard (the cache, a snapshot, one TSM
 * file): blocks of rows in cursor order, already clipped to the time range and with hidden
 * rows removed. `priority` orders sources by age: on equal timestamps the higher one wins.
 */
import type { ValueColumn } from '../point.js';
import type { CacheEntry } from '../cache/entry.js';
import { reverseColumn, reverseOwnedColumn, sliceColumn } from './column-builder.js';
import type { BatchStats } from './cursor.js';

export interface RunBlock {
  readonly offsets: Float64Array;
  readonly column: ValueColumn;
  /** Set on whole stored blocks (stats-block.ts): then `offsets`/`column` decode on access. */
  readonly stats?: BatchStats;
}

/** Rows of a block, without decoding a StatsBlock. */
export function rowCount(block: RunBlock): number {
  return block.stats ? block.stats.count : block.offsets.length;
}

export interface SortedRun {
  readonly priority: number;
  /**
   * When known without reading data (from a block index): no row of the run comes before
   * this offset in cursor order (ascending: every offset >= it; descending: <= it). Lets the
   * merge open the run only when it gets there.
   */
  readonly startBound?: number;
  /**
   * When known without reading data: no row of the run comes after this offset in cursor
   * order. With startBound it tells runs that cannot share a timestamp (run-chain.ts).
   */
  readonly endBound?: number;
  next(): Promise<RunBlock | null>;
  /** next()'s answer when it needs no read; undefined (nothing consumed) when it does. Absent: always read with next(). */
  nextNow?(): RunBlock | null | undefined;
  close(): void;
}

/** First index with offsets[i] >= x (offsets ascending). */
export function lowerBound(offsets: Float64Array, x: number, from = 0, to = offsets.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rows of an ascending block within [minOff, maxOff], in cursor order. */
export function clipBlock(block: RunBlock, minOff: number, maxOff: number, ascending: boolean): RunBlock | null {
  const from = lowerBound(block.offsets, minOff);
  const to = lowerBound(block.offsets, maxOff + 1, from);
  if (from >= to) return null;
  const offsets = block.offsets.slice(from, to);
  const column = sliceColumn(block.column, from, to);
  if (ascending) return { offsets, column };
  return { offsets: offsets.reverse(), column: reverseColumn(column) };
}

/**
 * clipBlock for a block the caller owns (freshly decoded): its arrays are cut with views and
 * reversed in place instead of copied.
 */
export function clipOwnedBlock(block: RunBlock, minOff: number, maxOff: number, ascending: boolean): RunBlock | null {
  const from = lowerBound(block.offsets, minOff);
  const to = lowerBound(block.offsets, maxOff + 1, from);
  if (from >= to) return null;
  if (ascending && from === 0 && to === block.offsets.length) return block;
  const offsets = block.offsets.subarray(from, to);
  const column = sliceColumn(block.column, from, to);
  if (ascending) return { offsets, column };
  offsets.reverse();
  return { offsets, column: reverseOwnedColumn(column) }; // views of the owned arrays (strings: a copy)
}

/**
 * Cache entries change under concurrent writes and deletes, so the clipped range is copied
 * when the run is created; the copy is one block.
 */
export class CacheRun implements SortedRun {
  private block: RunBlock | null;

  constructor(
    entry: CacheEntry,
    minOff: number,
    maxOff: number,
    ascending: boolean,
    readonly priority: number,
  ) {
    this.block = clipBlock(entry.view(), minOff, maxOff, ascending);
    this.startBound = this.block?.offsets[0];
    this.endBound = this.block?.offsets[this.block.offsets.length - 1];
  }

  readonly startBound: number | undefined;
  readonly endBound: number | undefined;

  next(): Promise<RunBlock | null> {
    return Promise.resolve(this.nextNow());
  }

  nextNow(): RunBlock | null {
    const b = this.block;
    this.block = null;
    return b;
  }

  close(): void {
    this.block = null;
  }
}

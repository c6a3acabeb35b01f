/**
 * One input file's blocks of the key being merged. A lane holds at most one decoded block (the
 * merge's memory bound) and knows the time of its next row without decoding: the next
 * undecoded block's minTime, so blocks are decoded only when the merge reaches them.
 *
 * Times are Float64 ns offsets from the shard base, exact below 2^53 (shard spans are).
 * Tombstones arrive as absolute [min, max] ns ranges; `Number(bigint)` is monotone, so a range
 * end beyond 2^53 still compares correctly with every in-shard offset.
 */
import { blockType, decodeBlock } from '../encoding/block.js';
import { CorruptionError } from '../errors.js';
import { FieldType } from '../point.js';
import type { ValueColumn } from '../point.js';
import type { HiddenRanges } from '../tombstone/filter.js';
import type { BlockEntry } from '../tsm/block-index.js';
import { columnStats, statsShape } from '../tsm/block-stats.js';
import type { TsmReader } from '../tsm/reader.js';
import type { MergeStats } from './merge-stats.js';

export interface DecodedBlock {
  readonly offsets: Float64Array;
  readonly column: ValueColumn;
}

export class Lane {
  /** Next entry not yet decoded or copied. */
  next = 0;
  block: DecodedBlock | null = null;
  /** Next row of `block`. */
  pos = 0;
  /** Hidden ranges as offsets: lo0, hi0, lo1, hi1, … */
  private readonly hidden: Float64Array;

  constructor(
    private readonly reader: TsmReader,
    private readonly key: string,
    readonly entries: readonly BlockEntry[],
    hidden: HiddenRanges,
    private readonly baseNs: bigint,
  ) {
    this.hidden = new Float64Array(hidden.length * 2);
    hidden.forEach(([lo, hi], i) => {
      this.hidden[2 * i] = Number(lo - baseNs);
      this.hidden[2 * i + 1] = Number(hi - baseNs);
    });
  }

  get hasRows(): boolean {
    return this.block !== null;
  }

  /** Time of the next row (decoded or not); Infinity when the lane is done. */
  nextTime(): number {
    if (this.block) return this.block.offsets[this.pos]!;
    const e = this.entries[this.next];
    return e ? this.offsetOf(e.minTime) : Infinity;
  }

  offsetOf(t: bigint): number {
    return Number(t - this.baseNs);
  }

  /** True when a tombstone hides some instant of [minOff, maxOff] in this file. */
  touches(minOff: number, maxOff: number): boolean {
    const h = this.hidden;
    for (let i = 0; i < h.length; i += 2) if (h[i]! <= maxOff && h[i + 1]! >= minOff) return true;
    return false;
  }

  /**
   * The next entry's payload, verified, unchanged (fast path). A block without index stats
   * (from a version-1 file, or a writer that gave none) is decoded once to compute them, so
   * copied blocks gain stats too; blocks whose values allow none stay without. Undefined for a
   * damaged block (readOrSkip).
   */
  async take(merge: MergeStats): Promise<{ entry: BlockEntry; payload: Uint8Array } | undefined> {
    const entry = this.entries[this.next++]!;
    const payload = await this.readOrSkip(entry, merge);
    if (payload === undefined) return undefined;
    if (entry.stats || statsShape(blockType(payload)) === 'none') return { entry, payload };
    const { column } = decodeBlock(payload, this.baseNs);
    const stats = columnStats(column, 0, column.values.length);
    return { entry: stats ? { ...entry, stats } : entry, payload };
  }

  /** Decodes the next entry, dropping hidden rows; the lane may stay empty if all were hidden. */
  async decode(stats: MergeStats): Promise<void> {
    const entry = this.entries[this.next++]!;
    const bytes = await this.readOrSkip(entry, stats);
    if (bytes === undefined) {
      this.block = null;
      return;
    }
    let block: DecodedBlock = decodeBlock(bytes, this.baseNs);
    stats.blocksDecoded++;
    if (this.touches(this.offsetOf(entry.minTime), this.offsetOf(entry.maxTime))) {
      const kept = this.dropHidden(block);
      stats.rowsPurged += block.offsets.length - kept.offsets.length;
      block = kept;
    }
    this.block = block.offsets.length > 0 ? block : null;
    this.pos = 0;
  }

  /**
   * A block that fails its checksum is left out of the merge, as scans leave it out
   * (query/tsm-run.ts): failing the merge instead stopped the shard's compactions for good, and
   * its level-0 files piled up with every flush. The compactor keeps the input in quarantine.
   */
  private async readOrSkip(entry: BlockEntry, stats: MergeStats): Promise<Uint8Array | undefined> {
    try {
      return await this.reader.readBlock(this.key, entry);
    } catch (err) {
      if (!(err instanceof CorruptionError) || !this.reader.isDamaged(entry)) throw err;
      stats.blocksDamaged++;
      return undefined;
    }
  }

  /** Moves past `n` rows of the decoded block, releasing it when done. */
  advance(n: number): void {
    this.pos += n;
    if (this.block && this.pos >= this.block.offsets.length) this.block = null;
  }

  private dropHidden(block: DecodedBlock): DecodedBlock {
    const keep: number[] = [];
    block.offsets.forEach((t, i) => {
      if (!this.touches(t, t)) keep.push(i);
    });
    return { offsets: Float64Array.from(keep, (i) => block.offsets[i]!), column: gather(block.column, keep) };
  }
}

/** Rows `rows` of `col`, in that order, as a new column of the same representation. */
export function gather(col: ValueColumn, rows: readonly number[]): ValueColumn {
  switch (col.type) {
    case FieldType.Float:
      return { type: col.type, values: Float64Array.from(rows, (i) => col.values[i]!) };
    case FieldType.Integer: {
      const v = col.values;
      return { type: col.type, values: v instanceof Float64Array ? Float64Array.from(rows, (i) => v[i]!) : BigInt64Array.from(rows, (i) => v[i]!) };
    }
    case FieldType.Unsigned: {
      const v = col.values;
      return { type: col.type, values: v instanceof Float64Array ? Float64Array.from(rows, (i) => v[i]!) : BigUint64Array.from(rows, (i) => v[i]!) };
    }
    case FieldType.Boolean:
      return { type: col.type, values: Uint8Array.from(rows, (i) => col.values[i]!) };
    case FieldType.String:
      return { type: col.type, values: rows.map((i) => col.values[i]!) };
  }
}

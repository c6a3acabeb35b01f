/**
 * The merge's output side: where blocks go (a BlockSink, usually a TsmWriter or the rolling
 * writer of outputs.ts) and the one output block being filled before it is encoded.
 */
import { encodeBlock } from '../encoding/block.js';
import type { FieldType, ValueColumn } from '../point.js';
import { ColumnBuilder } from '../query/column-builder.js';
import { columnStats, type BlockStats } from '../tsm/block-stats.js';
import type { MergeStats } from './merge-stats.js';

/** TsmWriter's block-writing contract: keys in byte order, blocks ascending per key. */
export interface BlockSink {
  writeBlock(key: string, type: FieldType, minTime: bigint, maxTime: bigint, count: number, payload: Uint8Array, stats?: BlockStats): Promise<void>;
}

/** Rows of one key waiting to be encoded as one block of at most `capacity` values. */
export class OutputBlock {
  private readonly offsets: Float64Array;
  private readonly values: ColumnBuilder;
  private n = 0;

  constructor(
    private readonly key: string,
    private readonly type: FieldType,
    private readonly capacity: number,
    private readonly baseNs: bigint,
    private readonly sink: BlockSink,
    private readonly stats: MergeStats,
  ) {
    this.offsets = new Float64Array(capacity);
    this.values = new ColumnBuilder(type, capacity);
  }

  get room(): number {
    return this.capacity - this.n;
  }

  /** Appends rows [from, to) of a decoded block; the caller keeps `to - from ≤ room`. */
  append(offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.offsets.set(offsets.subarray(from, to), this.n);
    this.values.appendRange(column, from, to);
    this.n += to - from;
  }

  /** Encodes and writes the pending rows, if any. */
  async flush(): Promise<void> {
    const n = this.n;
    if (n === 0) return;
    const offsets = this.offsets.subarray(0, n);
    const column = this.values.column();
    const payload = encodeBlock(this.baseNs, offsets, column, 0, n);
    const stats = columnStats(column, 0, n);
    const minTime = this.baseNs + BigInt(offsets[0]!);
    const maxTime = this.baseNs + BigInt(offsets[n - 1]!);
    this.n = 0;
    this.values.clear(); // the encoded payload and stats no longer read the column
    await this.sink.writeBlock(this.key, this.type, minTime, maxTime, n, payload, stats);
    this.stats.blocksEncoded++;
    this.stats.valuesOut += n;
  }
}

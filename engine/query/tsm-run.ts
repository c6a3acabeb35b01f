/**
 * A SortedRun over one key of one TSM file: reads the blocks overlapping the range lazily
 * (verified by checksum in the reader, cached in the block cache), decodes them relative to
 * the shard base and clips them. A damaged block throws CorruptionError: it is reported,
 * never served as data.
 */
import { decodeBlock } from '../encoding/block.js';
import type { BlockEntry } from '../tsm/block-index.js';
import type { TsmReader } from '../tsm/reader.js';
import { clipBlock, type RunBlock, type SortedRun } from './run.js';

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
      const clipped = clipBlock(decodeBlock(bytes, this.baseNs), this.minOff, this.maxOff, this.ascending);
      if (clipped) return clipped;
    }
    return null;
  }

  close(): void {
    this.i = this.entries.length;
  }
}

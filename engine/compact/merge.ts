/**
 * Streaming k-way merge of TSM files into a BlockSink: keys in byte order across all inputs;
 * each key merged by key-merge.ts (last write wins, tombstoned rows purged, blocks re-cut at
 * ≤ maxPointsPerBlock values, full untouched non-overlapping blocks copied unchanged).
 *
 * Memory: besides the inputs' indexes (held by their TsmReaders) and their read-ahead chunks
 * (read-ahead.ts), the merge holds one key's entry list per input, at most one decoded block
 * per input and one output block. Never a whole key's values nor a whole file.
 *
 * Key types: a key has one type per file. Should two inputs disagree (the field was dropped and
 * re-created with another type), the newest input's type wins and the older blocks are dropped,
 * as a read would not return them either; `blocksTypeConflict` counts them.
 */
import { Buffer } from 'node:buffer';
import { splitFieldKey } from '../cache/cache.js';
import type { HiddenRanges } from '../tombstone/filter.js';
import type { TsmReader } from '../tsm/reader.js';
import type { BlockSink } from './block-out.js';
import { mergeKey } from './key-merge.js';
import { Lane } from './lane.js';
import { emptyMergeStats } from './merge-stats.js';
import type { MergeStats } from './merge-stats.js';
import { Pacer } from './pacer.js';

/** Values per output block (InfluxDB's MaxPointsPerBlock). */
export const DEFAULT_MAX_POINTS_PER_BLOCK = 1000;

export interface MergeInput {
  readonly reader: TsmReader;
  /** Tombstones hide rows per file generation (tombstone/filter.ts). */
  readonly generation: number;
}

/** Hidden ranges of one series-field in files of `generation`. */
export type HiddenLookup = (seriesKey: string, field: string, generation: number) => HiddenRanges;

/** A sink that may also want to know where keys start (to roll output files between keys). */
export interface KeySink extends BlockSink {
  beginKey?(key: string): Promise<void>;
}

export interface MergeOptions {
  /** Offsets are taken from this base (the shard's); all data must lie within 2^53 ns of it. */
  readonly baseNs: bigint;
  readonly hidden?: HiddenLookup;
  readonly maxPointsPerBlock?: number;
  /** Smallest block copied unchanged (default maxPointsPerBlock: only full blocks). */
  readonly minCopyPoints?: number;
  readonly pacer?: Pacer;
}

/** `inputs` in (generation, sequence) order: later inputs win duplicate timestamps. */
export async function mergeFiles(inputs: readonly MergeInput[], sink: KeySink, options: MergeOptions): Promise<MergeStats> {
  const stats = emptyMergeStats();
  const maxPoints = options.maxPointsPerBlock ?? DEFAULT_MAX_POINTS_PER_BLOCK;
  const ctx = {
    baseNs: options.baseNs,
    maxPoints,
    minCopyPoints: options.minCopyPoints ?? maxPoints,
    sink,
    pacer: options.pacer ?? new Pacer('merge'),
    stats,
  };
  const pos = inputs.map(() => 0);
  for (;;) {
    // The smallest current key, and which inputs hold it.
    let min: Buffer | undefined;
    let members: number[] = [];
    inputs.forEach((input, i) => {
      const index = input.reader.index;
      if (pos[i]! >= index.keyCount) return;
      const bytes = index.keyBytesAt(pos[i]!);
      const c = min === undefined ? -1 : Buffer.compare(bytes, min);
      if (c < 0) {
        min = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        members = [i];
      } else if (c === 0) {
        members.push(i);
      }
    });
    if (members.length === 0) break;
    const first = inputs[members[0]!]!.reader.index;
    const key = first.keyAt(pos[members[0]!]!);
    const newest = inputs[members[members.length - 1]!]!.reader.index;
    const type = newest.typeAt(pos[members[members.length - 1]!]!);
    const { seriesKey, field } = splitFieldKey(key);
    const lanes: Lane[] = [];
    for (const i of members) {
      const { reader, generation } = inputs[i]!;
      const at = pos[i]!;
      pos[i] = at + 1;
      const entries = reader.index.entriesAt(at);
      stats.blocksIn += entries.length;
      for (const e of entries) stats.valuesIn += e.count;
      if (reader.index.typeAt(at) !== type) {
        stats.blocksTypeConflict += entries.length;
        continue;
      }
      const hidden = options.hidden ? options.hidden(seriesKey, field, generation) : [];
      lanes.push(new Lane(reader, key, entries, hidden, options.baseNs));
    }
    stats.keys++;
    await sink.beginKey?.(key);
    await mergeKey(key, type, lanes, ctx);
  }
  return stats;
}

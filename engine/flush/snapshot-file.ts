/**
 * Encode the columns of one frozen cache as a level-0 TSM file: every series-field in TSM key
 * order, cut into blocks of at most `maxPointsPerBlock` values, each encoded with the best
 * encoding for it. Runs on the event loop or in the flush worker (flush-worker.ts) with the
 * same result byte for byte: it depends only on its arguments.
 */
import { encodeBlock } from '../encoding/block.js';
import type { FieldType, ValueColumn } from '../point.js';
import { columnStats } from '../tsm/block-stats.js';
import { TsmWriter, type TsmFileInfo } from '../tsm/writer.js';
import { Pacer } from '../compact/pacer.js';

/** One series-field of a frozen cache: sorted, deduplicated offsets (ns from `baseNs`) and values. */
export interface SnapshotColumn {
  readonly key: string;
  readonly type: FieldType;
  readonly offsets: Float64Array;
  readonly column: ValueColumn;
}

export interface SnapshotFile {
  readonly values: number;
  /** The published file; undefined when there was nothing to write (no file is created). */
  readonly info: TsmFileInfo | undefined;
}

/**
 * Writes `columns` (in TSM key order) to `path`, atomically. On the event loop the encoding
 * yields every few ms (the compactor's Pacer): the writer's own awaits only reach the event
 * loop when its 256 KiB buffer fills, so a snapshot used to hold every /write behind it for
 * tens of ms, and the parse worker then sat idle with answers the event loop could not take.
 */
export async function writeSnapshotFile(path: string, baseNs: bigint, columns: readonly SnapshotColumn[], maxPointsPerBlock: number): Promise<SnapshotFile> {
  const writer = await TsmWriter.create(path, { level: 0 });
  try {
    const values = await writeBlocks(writer, new Pacer(`snapshot ${path}`), baseNs, columns, maxPointsPerBlock);
    if (values === 0) {
      await writer.abort();
      return { values: 0, info: undefined };
    }
    return { values, info: await writer.finish() };
  } catch (err) {
    await writer.abort().catch(() => undefined);
    throw err;
  }
}

/**
 * The blocks of every column, returning the values written. A function of its own that returns
 * right after its loop: the hot loop is optimised while it runs, and code after it (which first
 * runs when the loop ends) had no type feedback then, so the first snapshot deoptimised it.
 */
async function writeBlocks(writer: TsmWriter, pacer: Pacer, baseNs: bigint, columns: readonly SnapshotColumn[], maxPointsPerBlock: number): Promise<number> {
  let values = 0;
  for (const { key, type, offsets, column } of columns) {
    for (let s = 0; s < offsets.length; s += maxPointsPerBlock) {
      const e = Math.min(offsets.length, s + maxPointsPerBlock);
      const payload = encodeBlock(baseNs, offsets, column, s, e);
      const minTime = baseNs + BigInt(offsets[s]!);
      const maxTime = baseNs + BigInt(offsets[e - 1]!);
      await writer.writeBlock(key, type, minTime, maxTime, e - s, payload, columnStats(column, s, e));
      values += e - s;
      await pacer.tick();
    }
  }
  return values;
}

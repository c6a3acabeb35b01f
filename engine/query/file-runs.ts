/**
 * The TSM sources of one shard for a cursor: pins the shard's current files (released when
 * the cursor leaves the shard) and makes one run per file overlapping the range, ranked by the
 * file's age so newer files win duplicate timestamps. A file's index is searched for the key
 * only when the merge reaches the file's time range (DeferredRun).
 */
import { fieldKey } from '../cache/cache.js';
import type { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';
import type { CursorRequest } from './cursor.js';
import type { RunBlock, SortedRun } from './run.js';
import { TsmRun, type KeyBlocks } from './tsm-run.js';
import type { TsmReader } from '../tsm/reader.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { fileGeneration } from '../tombstone/tombstones.js';

/** Tombstone ranges as offsets from the shard base, clipped to the safe-integer range. */
function hiddenOffsets(filter: TombstoneFilter, shard: Shard, req: CursorRequest, path: string): [number, number][] {
  const ranges = filter.hidden(shard, req.seriesKey, req.field, fileGeneration(path));
  return ranges.map(([lo, hi]) => [offsetOf(lo - shard.baseNs), offsetOf(hi - shard.baseNs)]);
}

/**
 * A file's run whose key lookup (and tombstone check) waits until the merge reaches the
 * file's time range: a query that stops early (`ORDER BY time DESC LIMIT 1`) never searches
 * the indexes of the older files.
 */
class DeferredRun implements SortedRun {
  private run: SortedRun | null | undefined;

  constructor(
    private readonly open: () => SortedRun | null,
    readonly startBound: number,
    /** The file's last time in the range in cursor order (its index's time range, not the key's). */
    readonly endBound: number,
    readonly priority: number,
  ) {}

  next(): Promise<RunBlock | null> {
    if (this.run === undefined) this.run = this.open();
    return this.run ? this.run.next() : Promise.resolve(null);
  }

  nextNow(): RunBlock | null | undefined {
    if (this.run === undefined) this.run = this.open();
    return this.run ? this.run.nextNow?.() : null;
  }

  close(): void {
    this.run?.close();
    this.run = null;
  }
}

export function tsmRuns(
  filter: TombstoneFilter,
  shard: Shard,
  req: CursorRequest,
  type: FieldType,
  minOff: number,
  maxOff: number,
): { readonly runs: SortedRun[]; release(): void } {
  if (!shard.files) return { runs: [], release: () => undefined };
  const snap = shard.files.acquire();
  const key = fieldKey(req.seriesKey, req.field);
  const runs: SortedRun[] = [];
  snap.files.forEach((reader, i) => {
    const range = offsetRange(reader, shard.baseNs);
    const first = Math.max(minOff, range[0]);
    const last = Math.min(maxOff, range[1]);
    if (first > last) return; // the file holds nothing in the range
    const open = () => {
      const blocks = blocksOf(reader, req, key, type, shard.baseNs + BigInt(minOff), shard.baseNs + BigInt(maxOff));
      if (!blocks) return null;
      const hidden = filter.isClean(shard) ? [] : hiddenOffsets(filter, shard, req, reader.path);
      return new TsmRun(reader, key, blocks, shard.baseNs, minOff, maxOff, req.ascending, i, hidden);
    };
    runs.push(new DeferredRun(open, req.ascending ? first : last, req.ascending ? last : first, i));
  });
  let released = false;
  return {
    runs,
    release: () => {
      if (released) return;
      released = true;
      void snap.release()?.catch(() => undefined);
    },
  };
}

/** Positions of the blocks of `key` overlapping [minNs, maxNs] when the file holds it with `type` (one index search), else undefined. */
function blocksOf(reader: TsmReader, req: CursorRequest, key: string, type: FieldType, minNs: bigint, maxNs: bigint): KeyBlocks | undefined {
  const index = reader.index;
  const k = index.findSeriesField(req.seriesKey, req.field, key);
  if (k < 0 || index.typeAt(k) !== type) return undefined;
  const { start, end } = index.entryRangeAt(k, minNs, maxNs);
  return start < end ? { key: k, start, end } : undefined;
}

/** A file's time range as offsets from its shard's base, worked out once per file (not per cursor). */
const offsetRanges = new WeakMap<TsmReader, readonly [number, number, bigint]>();

function offsetRange(reader: TsmReader, baseNs: bigint): readonly [number, number, bigint] {
  let r = offsetRanges.get(reader);
  if (!r || r[2] !== baseNs) {
    const { min, max } = reader.timeRange;
    offsetRanges.set(reader, (r = [offsetOf(min - baseNs), offsetOf(max - baseNs), baseNs]));
  }
  return r;
}

/** A time relative to the shard base as a number, clamped to what offsets can be. */
function offsetOf(rel: bigint): number {
  return rel < 0n ? -1 : rel > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(rel);
}

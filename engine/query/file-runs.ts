/**
 * The TSM sources of one shard for a cursor: pins the shard's current files (released when
 * the cursor leaves the shard) and makes one TsmRun per file holding the key, oldest file
 * first so newer files win duplicate timestamps.
 */
import { fieldKey } from '../cache/cache.js';
import type { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';
import type { CursorRequest } from './cursor.js';
import type { SortedRun } from './run.js';
import { TsmRun } from './tsm-run.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { fileGeneration } from '../tombstone/tombstones.js';

/** Tombstone ranges as offsets from the shard base, clipped to the safe-integer range. */
function hiddenOffsets(filter: TombstoneFilter, shard: Shard, req: CursorRequest, path: string): [number, number][] {
  const ranges = filter.hidden(shard, req.seriesKey, req.field, fileGeneration(path));
  const clip = (x: bigint) => (x < 0n ? -1 : x > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(x));
  return ranges.map(([lo, hi]) => [clip(lo - shard.baseNs), clip(hi - shard.baseNs)]);
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
    if (reader.type(key) !== type) return;
    const hidden = filter.isClean(shard) ? [] : hiddenOffsets(filter, shard, req, reader.path);
    const run = new TsmRun(reader, key, shard.baseNs, minOff, maxOff, req.ascending, i, hidden);
    if (!run.isEmpty) runs.push(run);
  });
  let released = false;
  return {
    runs,
    release: () => {
      if (released) return;
      released = true;
      void snap.release().catch(() => undefined);
    },
  };
}

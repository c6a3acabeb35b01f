/**
 * Which files of a shard hold rows hidden by a tombstone? The planner needs this only for a
 * cold shard that is otherwise fully compacted (would a rewrite purge anything?), so the
 * service asks only then. The answer needs a scan of the file's index and of the blocks a
 * hidden range meets (paced), so it is cached per open file for `ttlMs` while the set of
 * tombstones stays the same (a filter with a `version` says when it changed). Tombstone
 * collection relies on that: a "nothing hidden" answer from before a delete must not be reused.
 */
import { splitFieldKey } from '../cache/cache.js';
import { decodeBlock } from '../encoding/block.js';
import type { Shard } from '../shard/shard.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import type { TsmReader } from '../tsm/reader.js';
import type { Pacer } from './pacer.js';

export const DEFAULT_PROBE_TTL_MS = 5 * 60 * 1000;

export class TombstoneProbe {
  private readonly cache = new WeakMap<TsmReader, { atMs: number; version: number | undefined; hidden: boolean }>();

  constructor(
    private readonly filter: TombstoneFilter,
    private readonly ttlMs = DEFAULT_PROBE_TTL_MS,
  ) {}

  async hasHiddenRows(shard: Shard, reader: TsmReader, generation: number, nowMs: number, pacer: Pacer): Promise<boolean> {
    if (this.filter.isClean(shard)) return false;
    const version = this.filter.version;
    const known = this.cache.get(reader);
    if (known && known.version === version && nowMs - known.atMs < this.ttlMs) return known.hidden;
    const hidden = await scan(this.filter, shard, reader, generation, pacer);
    this.cache.set(reader, { atMs: nowMs, version, hidden });
    return hidden;
  }
}

/**
 * True when some tombstone hides a row of this file. Blocks whose time span meets a hidden
 * range are decoded to look at the rows: a span test alone would flag a file forever after its
 * rows were purged (the range still falls inside the block span) and rewrite it every round.
 */
async function scan(filter: TombstoneFilter, shard: Shard, reader: TsmReader, generation: number, pacer: Pacer): Promise<boolean> {
  const index = reader.index;
  for (let i = 0; i < index.keyCount; i++) {
    if (i % 256 === 255) await pacer.tick();
    const key = index.keyAt(i);
    const { seriesKey, field } = splitFieldKey(key);
    const ranges = filter.hidden(shard, seriesKey, field, generation);
    if (ranges.length === 0) continue;
    for (const e of index.entriesAt(i)) {
      const touching = ranges.filter(([lo, hi]) => lo <= e.maxTime && hi >= e.minTime);
      if (touching.length === 0) continue;
      const { offsets } = decodeBlock(await reader.readBlock(key, e), shard.baseNs);
      const hidden = touching.map(([lo, hi]) => [Number(lo - shard.baseNs), Number(hi - shard.baseNs)] as const);
      for (const t of offsets) if (hidden.some(([lo, hi]) => t >= lo && t <= hi)) return true;
      await pacer.tick();
    }
  }
  return false;
}

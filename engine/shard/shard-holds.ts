/**
 * Whether a shard holds a series: a value of one of its fields in the shard's caches or a key
 * in its TSM files (a file keys a series-field only with values). From indexes, no block is
 * read. Tombstones are not looked at: a caller that must not count deleted rows asks only
 * about shards no tombstone reaches (Tombstones.isClean), or reads.
 */
import { compositeKey } from '../tsm/format.js';
import type { Shard } from './shard.js';

export function shardHoldsSeries(shard: Shard, seriesKey: string, fields: Iterable<string>): boolean {
  const files = shard.files?.files() ?? [];
  for (const field of fields) {
    for (const cache of shard.caches()) if ((cache.get(seriesKey, field)?.length ?? 0) > 0) return true;
    const key = compositeKey(seriesKey, field);
    if (files.some((f) => f.hasKey(key))) return true;
  }
  return false;
}

/**
 * Series a removed shard leaves behind. 1.x's index lists a series while a shard holds it:
 * once DROP SHARD or retention deletes its last shard, SHOW SERIES, SHOW MEASUREMENTS (the
 * measurement's last series), SHOW TAG KEYS and the cardinalities no longer list it (seen on
 * 1.6.7). Strata's index is the database's, so the series the removed shards held are looked
 * for in the shards left, and those no shard holds leave the index.
 *
 * Not followed: 1.6.7 still lists such a series' tag values under SHOW TAG VALUES, and its tag
 * keys under `*` and `GROUP BY *`, while its measurement has other series (its in-memory index keeps
 * them until it restarts, after which it answers as here); here they go with the series.
 */
import type { Database } from '../database.js';
import type { Shard } from '../shard/shard.js';
import { shardHoldsSeries } from '../shard/shard-holds.js';
import { splitCompositeKey } from '../tsm/format.js';

/** Keys of the series `shards` hold in their files and caches (gather before they close). */
export function seriesKeysOf(shards: readonly Shard[]): Set<string> {
  const out = new Set<string>();
  for (const shard of shards) {
    for (const cache of shard.caches()) for (const key of cache.series.keys()) out.add(key);
    for (const file of shard.files?.files() ?? []) {
      let last = '';
      for (const key of file.keys()) {
        const seriesKey = splitCompositeKey(key)?.seriesKey;
        // Keys come sorted: one series' fields are neighbours.
        if (seriesKey === undefined || seriesKey === last) continue;
        out.add((last = seriesKey));
      }
    }
  }
  return out;
}

/** Drops from `db`'s index the series of `keys` no shard of any policy holds any more; answers how many. */
export function dropOrphanSeries(db: Database, keys: ReadonlySet<string>): number {
  // Newest first: a series still written is found in the first shard looked at.
  const shards = [...db.shardSets.values()].flatMap((set) => set.shards).sort((a, b) => b.startSec - a.startSec);
  const ids: number[] = [];
  const emptied = new Set<string>();
  for (const key of keys) {
    const id = db.index.seriesId(key);
    const info = id === undefined ? undefined : db.index.seriesById(id);
    const fields = info && db.index.measurement(info.measurement)?.fields;
    if (!info || !fields) continue;
    if (shards.some((shard) => shardHoldsSeries(shard, key, fields.keys()))) continue;
    ids.push(info.id);
    emptied.add(info.measurement);
  }
  db.dropSeries(ids);
  // A measurement left without series loses its shards' field sets too (as DROP MEASUREMENT).
  for (const name of emptied) {
    if (db.index.measurement(name)) continue;
    for (const set of db.shardSets.values()) for (const shard of set.shards) shard.fields.drop(name);
  }
  return ids.length;
}

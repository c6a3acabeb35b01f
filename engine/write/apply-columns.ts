/**
 * applyPoints for a parse worker's ColumnBatch: the same cache appends and byte estimate,
 * read straight from the typed columns, without materialising Point objects. A body's points
 * mostly share one shard and a few series, so the shard and each series' field map are
 * looked up once per run instead of once per point.
 */
import type { Database } from '../database.js';
import type { RetentionPolicyInfo } from '../meta/model.js';
import type { CacheEntry } from '../cache/entry.js';
import { fieldTypeAt, valueAt, type ColumnBatch } from '../lineprotocol/columns.js';
import { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';

/** Returns the approximate cache bytes added (as applyPoints). */
export function applyColumns(db: Database, rp: RetentionPolicyInfo, b: ColumnBatch, seq: bigint): number {
  const set = db.shardSet(rp.name);
  const seriesFields: (Map<string, CacheEntry> | undefined)[] = new Array(b.series.length);
  let shard: Shard | undefined;
  let bytes = 0;
  let j = 0;
  for (let i = 0; i < b.pointSeries.length; i++) {
    const sec = b.sec[i]!;
    if (!shard || !shard.containsSec(sec)) {
      if (shard && seq > shard.cache.maxSeq) shard.cache.maxSeq = seq;
      shard = set.findOrCreate(sec, rp.shardGroupDurationSec);
      seriesFields.fill(undefined);
    }
    const cache = shard.cache;
    const offset = shard.offsetOf(sec, b.nsec[i]!);
    const s = b.pointSeries[i]!;
    const fields = seriesFields[s] ?? (seriesFields[s] = cache.fields(b.series[s]!.key));
    for (const end = b.fieldEnd[i]!; j < end; j++) {
      const type = fieldTypeAt(b, j);
      const value = valueAt(b, j);
      cache.entry(fields, b.fieldNames[b.fieldName[j]!]!, type).append(offset, value);
      const n = type === FieldType.String ? 16 + (value as string).length * 2 : 16;
      cache.noteAppend(n);
      bytes += n;
    }
  }
  if (shard && seq > shard.cache.maxSeq) shard.cache.maxSeq = seq;
  return bytes;
}

/**
 * Apply accepted points to the shard caches of one database/RP. Runs synchronously right
 * after the WAL entry holding them is durable, in WAL order, so the caches always hold a
 * prefix of the log.
 */
import type { Database } from '../database.js';
import type { RetentionPolicyInfo } from '../meta/model.js';
import { FieldType, type Point } from '../point.js';

/** Returns the approximate cache bytes added. */
export function applyPoints(db: Database, rp: RetentionPolicyInfo, points: readonly Point[], seq: bigint): number {
  const set = db.shardSet(rp.name);
  let bytes = 0;
  for (const p of points) {
    const shard = set.findOrCreate(p.sec, rp.shardGroupDurationSec);
    const cache = shard.cache;
    const offset = shard.offsetOf(p.sec, p.nsec);
    const fields = cache.fields(p.seriesKey);
    for (const f of p.fields) {
      cache.entry(fields, f.key, f.type, p.measurement).append(offset, f.value);
      const n = f.type === FieldType.String ? 16 + (f.value as string).length * 2 : 16;
      cache.noteAppend(n);
      bytes += n;
    }
    if (seq > cache.maxSeq) cache.maxSeq = seq;
  }
  return bytes;
}

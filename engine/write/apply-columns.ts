/**
 * applyPoints for a parse worker's ColumnBatch: the same cache appends and byte estimate,
 * read straight from the typed columns, without materialising Point objects. A body's points
 * mostly share one shard and a few series, so the shard is looked up once per run of points
 * in it, and each (series, field) cache entry once per shard run instead of once per value.
 */
import type { Database } from '../database.js';
import type { RetentionPolicyInfo } from '../meta/model.js';
import type { CacheEntry } from '../cache/entry.js';
import { BOXED } from '../lineprotocol/column-builder.js';
import { fieldTypeAt, type ColumnBatch } from '../lineprotocol/columns.js';
import type { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';

/** Returns the approximate cache bytes added (as applyPoints). */
export function applyColumns(db: Database, rp: RetentionPolicyInfo, b: ColumnBatch, seq: bigint): number {
  const set = db.shardSet(rp.name);
  // entries[s][k]: the cache entry of series s, field k in the current shard.
  let entries: (CacheEntry | undefined)[][] = [];
  let shard: Shard | undefined;
  let total = 0;
  let bytes = 0;
  let values = 0;
  let j = 0;
  const types = b.fieldType;
  const num = b.num;
  for (let i = 0; i < b.pointSeries.length; i++) {
    const sec = b.sec[i]!;
    if (!shard || !shard.containsSec(sec)) {
      if (shard) settle(shard, bytes, values, seq);
      total += bytes;
      bytes = 0;
      values = 0;
      shard = set.findOrCreate(sec, rp.shardGroupDurationSec);
      entries = [];
    }
    const offset = shard.offsetOf(sec, b.nsec[i]!);
    const s = b.pointSeries[i]!;
    const row = entries[s] ?? (entries[s] = []);
    const end = b.fieldEnd[i]!;
    values += end - j;
    for (; j < end; j++) {
      const k = b.fieldName[j]!;
      const entry = row[k] ?? (row[k] = entryFor(shard, b, s, k, fieldTypeAt(b, j)));
      const t = types[j]!;
      if ((t & BOXED) === 0) {
        entry.appendNumber(offset, num[j]!);
        bytes += 16;
      } else {
        const v = b.boxed[num[j]!]!;
        entry.append(offset, v);
        bytes += typeof v === 'string' ? 16 + v.length * 2 : 16;
      }
    }
  }
  if (shard) settle(shard, bytes, values, seq);
  return total + bytes;
}

function entryFor(shard: Shard, b: ColumnBatch, s: number, k: number, type: FieldType): CacheEntry {
  const cache = shard.cache;
  return cache.entry(cache.fields(b.series[s]!.key), b.fieldNames[k]!, type);
}

function settle(shard: Shard, bytes: number, values: number, seq: bigint): void {
  const cache = shard.cache;
  cache.noteAppends(bytes, values);
  if (seq > cache.maxSeq) cache.maxSeq = seq;
}

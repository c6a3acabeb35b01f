/**
 * applyPoints for a parse worker's ColumnBatch: the same cache appends and byte estimate,
 * read straight from the typed columns, without materialising Point objects.
 *
 * Why the points are applied series by series: a body interleaves its series (TSBS-like
 * loads cycle through every host), so appending in body order touches a different cache entry
 * for every value, and on the cpu bench each append was then mostly a cache miss on the
 * entry's object and arrays. Points are grouped by series within each run of points that fall
 * in one shard (a stable counting sort, so each entry still receives its values in body
 * order: later writes of a timestamp still win), and a series' handful of entries stay hot
 * while its points are appended. Each (series, field) entry is looked up once per run.
 */
import type { Database } from '../database.js';
import type { RetentionPolicyInfo } from '../meta/model.js';
import type { CacheEntry } from '../cache/entry.js';
import { BOXED } from '../lineprotocol/column-builder.js';
import { fieldTypeAt, type ColumnBatch } from '../lineprotocol/columns.js';
import type { Shard } from '../shard/shard.js';

/** Returns the approximate cache bytes added (as applyPoints). */
export function applyColumns(db: Database, rp: RetentionPolicyInfo, b: ColumnBatch, seq: bigint): number {
  const set = db.shardSet(rp.name);
  const n = b.pointSeries.length;
  let bytes = 0;
  for (let from = 0; from < n; ) {
    const shard = set.findOrCreate(b.sec[from]!, rp.shardGroupDurationSec);
    let to = from + 1;
    while (to < n && shard.containsSec(b.sec[to]!)) to++;
    bytes += applyRun(shard, b, from, to, seq);
    from = to;
  }
  return bytes;
}

/** Applies points [from, to), all in `shard`. */
function applyRun(shard: Shard, b: ColumnBatch, from: number, to: number, seq: bigint): number {
  const order = pointsBySeries(b, from, to);
  const { sec, nsec, fieldEnd, fieldName, fieldType, num } = b;
  const fieldCount = b.fieldNames.length;
  const row = rowScratch(fieldCount);
  let bytes = 0;
  let q = 0;
  for (let s = 0; s < b.series.length; s++) {
    const seriesEnd = seriesEnds[s]!;
    if (q === seriesEnd) continue;
    // The series' entries, looked up once per run: row[k] is its entry for field name k.
    row.fill(undefined, 0, fieldCount);
    for (; q < seriesEnd; q++) {
      const i = order[q]!;
      const offset = shard.offsetOf(sec[i]!, nsec[i]!);
      const end = fieldEnd[i]!;
      for (let j = i === 0 ? 0 : fieldEnd[i - 1]!; j < end; j++) {
        const k = fieldName[j]!;
        const entry = row[k] ?? (row[k] = entryFor(shard, b, s, k, j));
        if ((fieldType[j]! & BOXED) === 0) {
          entry.appendNumber(offset, num[j]!);
          bytes += 16;
        } else {
          const v = b.boxed[num[j]!]!;
          entry.append(offset, v);
          bytes += typeof v === 'string' ? 16 + v.length * 2 : 16;
        }
      }
    }
  }
  const cache = shard.cache;
  cache.noteAppends(bytes, (to === 0 ? 0 : fieldEnd[to - 1]!) - (from === 0 ? 0 : fieldEnd[from - 1]!));
  if (seq > cache.maxSeq) cache.maxSeq = seq;
  return bytes;
}

/**
 * Scratch of pointsBySeries, reused from batch to batch: fresh arrays per batch were V8
 * external memory that counts towards the next mark-compact (perf/README.md, session 7).
 * After a call, series s's points are order[seriesEnds[s - 1] (0 for s = 0) .. seriesEnds[s]).
 */
let seriesEnds = new Uint32Array(1024);
let order = new Uint32Array(8192);
let row: (CacheEntry | undefined)[] = [];

/**
 * Indices [from, to) grouped by series, in body order within a series (stable counting sort).
 * A view of scratch memory: valid until the next call.
 */
function pointsBySeries(b: ColumnBatch, from: number, to: number): Uint32Array {
  const series = b.series.length;
  const pointSeries = b.pointSeries;
  if (seriesEnds.length < series + 1) seriesEnds = new Uint32Array(2 * (series + 1));
  if (order.length < to - from) order = new Uint32Array(2 * (to - from));
  // Counted one place up, so that placing the points below leaves each series' end in its own place.
  const start = seriesEnds.fill(0, 0, series + 1);
  for (let i = from; i < to; i++) start[pointSeries[i]! + 1]!++;
  for (let s = 1; s <= series; s++) start[s]! += start[s - 1]!;
  for (let i = from; i < to; i++) order[start[pointSeries[i]!]!++] = i;
  return order;
}

/** The entries of one series by field name index, as a reused array of at least `fields` places. */
function rowScratch(fields: number): (CacheEntry | undefined)[] {
  if (row.length < fields) row = new Array<CacheEntry | undefined>(fields).fill(undefined);
  return row;
}

function entryFor(shard: Shard, b: ColumnBatch, s: number, k: number, j: number): CacheEntry {
  const cache = shard.cache;
  return cache.entry(cache.fields(b.series[s]!.key), b.fieldNames[k]!, fieldTypeAt(b, j));
}

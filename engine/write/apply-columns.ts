/**
 * applyPoints for a parse worker's ColumnBatch: the same cache appends and byte estimate,
 * read straight from the typed columns, without materialising Point objects.
 *
 * Points are applied in body order, so the batch's columns are read front to back (the CPU
 * prefetches them; they were just written by the parse worker on another core). Grouping the
 * points by series first (a counting sort, so that a series' entries stay hot while its points
 * are appended) paid off while an append was costly; with CacheEntry.appendNumber's fast
 * path the scattered reads of the columns cost more than it saved: in process, sensor bodies
 * 47 vs 63 ns per value, 1000 sensor series 88 vs 135, cpu bodies (100 or 1000 hosts) at
 * parity (perf/README.md, section 10). Each (series, field) entry is looked up once per run.
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
  const { sec, fieldEnd } = b;
  const n = b.pointSeries.length;
  let bytes = 0;
  for (let from = 0; from < n; ) {
    const shard = set.findOrCreate(sec[from]!, rp.shardGroupDurationSec);
    const to = runEnd(shard, sec, from, n);
    const runBytes = applyRun(shard, b, from, to);
    const cache = shard.cache;
    cache.noteAppends(runBytes, (to === 0 ? 0 : fieldEnd[to - 1]!) - (from === 0 ? 0 : fieldEnd[from - 1]!));
    if (seq > cache.maxSeq) cache.maxSeq = seq;
    bytes += runBytes;
    from = to;
  }
  return bytes;
}

/*
 * The two loops over a batch's points are functions of their own that only return after the
 * loop: a server's first batches run them long enough for V8 to compile them on stack
 * replacement, and code after such a loop has no type feedback yet, so the OSR code used to
 * deoptimise there (perf/README.md, section 11).
 */

/** End of the run of points from `from` that fall in `shard`. */
function runEnd(shard: Shard, sec: ColumnBatch['sec'], from: number, n: number): number {
  let to = from + 1;
  while (to < n && shard.containsSec(sec[to]!)) to++;
  return to;
}

/** Appends points [from, to), all in `shard`; returns the approximate cache bytes added. */
function applyRun(shard: Shard, b: ColumnBatch, from: number, to: number): number {
  const { pointSeries, sec, nsec, fieldEnd, fieldName, fieldType, num } = b;
  // rows[s][k]: the entry of series s for field name k, looked up on first use in this run.
  const rows: (CacheEntry | undefined)[][] = [];
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const s = pointSeries[i]!;
    const row = rows[s] ?? (rows[s] = []);
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
  return bytes;
}

function entryFor(shard: Shard, b: ColumnBatch, s: number, k: number, j: number): CacheEntry {
  const cache = shard.cache;
  const series = b.series[s]!;
  return cache.entry(cache.fields(series.key), b.fieldNames[k]!, fieldTypeAt(b, j), series.measurement);
}

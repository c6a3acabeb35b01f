/**
 * Deletes (DELETE, DROP SERIES, DROP MEASUREMENT, retention trims) as tombstones.
 *
 * Ordering is by WAL sequence: every write with seq <= appliedSeq is in the caches when the
 * delete runs (the WAL acknowledges in order and writes apply synchronously on ack), and
 * every later write is not. So, in one synchronous step, the delete records that seq, takes
 * a file-generation mark per affected shard, removes matching rows from the caches and makes
 * the tombstone live for reads and compactions; then it persists the tombstone. Reads filter
 * TSM files below the mark; WAL replay filters entries up to the seq; compaction purges.
 * Points written after the delete stay visible. Dropped series are durable before the answer.
 */
import { randomUUID } from 'node:crypto';
import type { Catalog } from '../meta/catalog.js';
import type { TombstoneInfo } from '../meta/model.js';
import type { Database } from '../database.js';
import { parseSeriesKey } from '../lineprotocol/series-key.js';
import { selectSeries, type TagExpr } from '../series/tag-expr.js';
import { tombstoneCovers } from '../tombstone/tombstones.js';

export interface DeleteRequest {
  readonly db: string;
  /** Undefined: every retention policy. */
  readonly rp?: string;
  /** Resolved measurement names; null: every measurement. */
  readonly measurements: readonly string[] | null;
  readonly expr: TagExpr;
  readonly minNs: bigint;
  readonly maxNs: bigint;
  /** Also forget the matching series in the index (DROP SERIES / DROP MEASUREMENT). */
  readonly dropSeries: boolean;
}

/** Where a tombstone goes live before its save (engine/tombstone/tombstones.ts). */
export interface LiveTombstones {
  addPending(info: TombstoneInfo): void;
  dropPending(id: string): void;
}

export async function applyDelete(db: Database, catalog: Catalog, live: LiveTombstones, appliedSeq: bigint, req: DeleteRequest): Promise<TombstoneInfo> {
  const measurements = req.measurements ? new Set(req.measurements) : null;
  const match = { measurements, expr: req.expr };
  const marks: Record<string, number> = {};
  for (const [rp, set] of db.shardSets) {
    if (req.rp !== undefined && rp !== req.rp) continue;
    for (const shard of set.shards) {
      if (shard.endNs <= req.minNs || shard.baseNs > req.maxNs) continue;
      marks[shard.key] = shard.files ? shard.files.nextGeneration() : 0;
      const lo = req.minNs - shard.baseNs;
      const hi = req.maxNs - shard.baseNs;
      const minOff = lo < 0n ? 0 : Number(lo);
      const maxOff = hi > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(hi);
      for (const cache of shard.caches()) {
        for (const [seriesKey, fields] of cache.series) {
          const { measurement, tags } = parseSeriesKey(seriesKey);
          if (!tombstoneCovers(match, measurement, tags)) continue;
          for (const entry of fields.values()) entry.removeRange(minOff, maxOff);
        }
      }
    }
  }
  if (req.dropSeries) {
    const ids: number[] = [];
    const names = req.measurements ?? db.index.measurementNames();
    for (const name of names) {
      const m = db.index.measurement(name);
      if (m) ids.push(...selectSeries(m, req.expr));
    }
    db.dropSeries(ids);
    // A measurement left without series loses its shards' field sets too (1.x's DROP MEASUREMENT).
    for (const name of names) {
      if (db.index.measurement(name)) continue;
      for (const set of db.shardSets.values()) for (const shard of set.shards) shard.fields.drop(name);
    }
  }
  const info: TombstoneInfo = {
    id: randomUUID(),
    database: req.db,
    retentionPolicy: req.rp,
    measurements: req.measurements ? [...req.measurements] : null,
    predicate: req.expr,
    minNs: req.minNs.toString(),
    maxNs: req.maxNs.toString(),
    seq: appliedSeq.toString(),
    marks,
    createdAt: new Date().toISOString(),
  };
  // Live in the same synchronous step as the marks: no flush or compaction runs in between.
  live.addPending(info);
  try {
    await catalog.addTombstone(info);
  } catch (err) {
    live.dropPending(info.id);
    throw err;
  }
  // The series log buffers its appends: without this an acknowledged DROP SERIES or DROP
  // MEASUREMENT came back in SHOW SERIES / MEASUREMENTS after a crash (its rows stayed hidden by
  // the tombstone). After the tombstone's save: a crash between the two leaves the series listed
  // with no rows, never rows without their series.
  if (req.dropSeries) await db.syncIndex();
  return info;
}

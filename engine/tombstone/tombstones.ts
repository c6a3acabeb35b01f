/**
 * The live tombstones of the engine, indexed by database, answering the two questions reads
 * ask: which time ranges of a TSM file are hidden for a series (TombstoneFilter), and whether
 * a replayed WAL point predates a delete that covers it.
 */
import { basename } from 'node:path';
import type { TombstoneInfo } from '../meta/model.js';
import type { Point } from '../point.js';
import { parseSeriesKey } from '../lineprotocol/series-key.js';
import { matchesTags, type TagExpr } from '../series/tag-expr.js';
import type { Shard } from '../shard/shard.js';
import { toNs } from '../time.js';
import type { HiddenRanges, TombstoneFilter } from './filter.js';

interface Live {
  readonly info: TombstoneInfo;
  readonly expr: TagExpr;
  readonly min: bigint;
  readonly max: bigint;
  readonly seq: bigint;
  readonly measurements: ReadonlySet<string> | null;
}

export function tombstoneCovers(t: { measurements: ReadonlySet<string> | null; expr: TagExpr }, measurement: string, tags: Point['tags']): boolean {
  return (t.measurements === null || t.measurements.has(measurement)) && matchesTags(t.expr, tags);
}

export class Tombstones implements TombstoneFilter {
  private byDb = new Map<string, Live[]>();
  version = 0;

  reset(all: readonly TombstoneInfo[]): void {
    this.version++;
    const byDb = new Map<string, Live[]>();
    for (const info of all) {
      const list = byDb.get(info.database) ?? [];
      list.push({
        info,
        expr: info.predicate as TagExpr,
        min: BigInt(info.minNs),
        max: BigInt(info.maxNs),
        seq: BigInt(info.seq),
        measurements: info.measurements ? new Set(info.measurements) : null,
      });
      byDb.set(info.database, list);
    }
    this.byDb = byDb;
  }

  private relevant(shard: Shard): Live[] {
    const list = this.byDb.get(shard.db);
    if (!list) return [];
    return list.filter((t) => (t.info.retentionPolicy === undefined || t.info.retentionPolicy === shard.rp) && t.info.marks[shard.key] !== undefined);
  }

  isClean(shard: Shard): boolean {
    return this.relevant(shard).length === 0;
  }

  hidden(shard: Shard, seriesKey: string, _field: string, fileGeneration: number): HiddenRanges {
    const list = this.relevant(shard);
    if (list.length === 0) return [];
    const { measurement, tags } = parseSeriesKey(seriesKey);
    const out: [bigint, bigint][] = [];
    for (const t of list) {
      if (fileGeneration >= t.info.marks[shard.key]!) continue;
      if (tombstoneCovers(t, measurement, tags)) out.push([t.min, t.max]);
    }
    return out;
  }

  /** Highest mark any tombstone recorded for a shard (new files must get generations above it). */
  markFloor(shard: Shard): number {
    let floor = 0;
    for (const t of this.byDb.get(shard.db) ?? []) {
      const m = t.info.marks[shard.key];
      if (m !== undefined && m > floor) floor = m;
    }
    return floor;
  }

  /** During WAL replay: is this point (logged at `seq`) hidden by a later delete? */
  hidesReplayed(db: string, rp: string, seq: bigint, p: Point): boolean {
    const list = this.byDb.get(db);
    if (!list) return false;
    let t: bigint | undefined;
    for (const ts of list) {
      if (seq > ts.seq) continue;
      if (ts.info.retentionPolicy !== undefined && ts.info.retentionPolicy !== rp) continue;
      t ??= toNs(p.sec, p.nsec);
      if (t >= ts.min && t <= ts.max && tombstoneCovers(ts, p.measurement, p.tags)) return true;
    }
    return false;
  }
}

/** The generation encoded in a TSM file name (`000000007-000000001.tsm` → 7). */
export function fileGeneration(path: string): number {
  return Number.parseInt(basename(path), 10);
}

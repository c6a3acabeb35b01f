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
  private saved: readonly TombstoneInfo[] = [];
  /**
   * Tombstones whose DELETE took its marks but whose catalog save has not finished. They hide
   * rows from the moment the marks are taken: a flush in that window writes a file at or above
   * the mark, and a compaction merging it with older files names its output after it, so a
   * merge that did not purge the deleted rows would carry them above the mark for good.
   */
  private readonly pending = new Map<string, TombstoneInfo>();

  /** The catalog's tombstones (after every catalog change); pending ones it now holds are settled. */
  reset(all: readonly TombstoneInfo[]): void {
    for (const info of all) this.pending.delete(info.id);
    this.saved = all;
    this.rebuild();
  }

  /** A tombstone live before its catalog save resolves (write/delete.ts). */
  addPending(info: TombstoneInfo): void {
    this.pending.set(info.id, info);
    this.rebuild();
  }

  /** The save of a pending tombstone failed: it hides nothing after all. */
  dropPending(id: string): void {
    if (this.pending.delete(id)) this.rebuild();
  }

  private rebuild(): void {
    this.version++;
    const byDb = new Map<string, Live[]>();
    for (const info of [...this.saved, ...this.pending.values()]) {
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

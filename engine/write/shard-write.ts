/**
 * Field types as 1.6.7 admits a batch that gives a new field two types, shard by shard. (For
 * any other batch this comes to the same outcome as checking the points one by one, which
 * admit.ts does instead.)
 *
 * 1.6.7 writes each shard's points in one go (tsdb Shard.WritePoints): it creates the series,
 * checks every point against the field types the shard had when the write began (a point
 * with another type is dropped: partial write, first reason, one count per point), compacts
 * the kept points to the front of the batch's own array, and only then creates the new fields
 * those points bring, in point order. When a new field comes with a second type there, the
 * write fails (`field type conflict`) after creating the fields before it. The coordinator
 * (1.x's `PointsWriter.writeToShard`: any error but a partial write creates the shard if it is
 * missing and writes again) then tries once more, on the array as the first try left it: the
 * kept points in front, the original tail behind them. A shard that did not exist used that retry up to
 * create itself, so there a failure is final and none of the shard's points is stored; in a
 * shard that existed the second try sees the fields the first one created, so it usually drops
 * the later points of the second type and stores the rest (partial write naming that field,
 * with the tail's duplicates counted), unless a second new field conflicts as well.
 *
 * Recorded from 1.6.7 (fixtures/conformance s-w901, s-w910..s-w918): `q s="a" 7\nq s=1i 8`
 * into a fresh database fails whole; into an existing shard it stores the first point. The
 * same model gives 1.6.7's answer to every random write case of seed 1311 (700) except where
 * 1.6.7 stores a field with another type in another shard group.
 *
 * Strata keeps one type per measurement and field (README, deviations), so the types a shard
 * "had" are the index's, and shards are taken in the order the batch first reaches them.
 */
import type { Database } from '../database.js';
import type { RetentionPolicyInfo } from '../meta/model.js';
import type { Point } from '../point.js';
import type { Shard } from '../shard/shard.js';
import type { ShardSet } from '../shard/shard-set.js';
import type { Rejection } from './partial.js';
import { indexSeries, refused } from './refuse.js';

/** The shard a point at `sec` belongs to (its start), and whether the batch would create it. */
export type ShardOf = (sec: number) => { readonly start: number; readonly created: boolean };

/**
 * The shards of a policy as they are before a batch (the batch creates them only once
 * admitted). Looked up only when a batch needs it: most never do.
 */
export function shardsBeforeBatch(db: Database, rp: RetentionPolicyInfo): ShardOf {
  let set: ShardSet | undefined;
  return (sec) => {
    set ??= db.shardSet(rp.name);
    const found = set.find(sec);
    return found ? { start: found.startSec, created: false } : { start: set.newShardStart(sec, rp.shardGroupDurationSec)!, created: true };
  };
}

export interface ShardAdmission {
  readonly accepted: Point[];
  readonly rejected: Rejection[];
  /** Times (s) of the points whose series were indexed without storing them. */
  readonly indexedOnly: number[];
}

/** Admit the points of a batch shard by shard, as 1.6.7 does. */
export function admitByShard(db: Database, rpName: string, points: readonly Point[], shardOf: ShardOf): ShardAdmission {
  const shards = new Map<number, { created: boolean; points: Point[] }>();
  for (const p of points) {
    const { start, created } = shardOf(p.sec);
    const s = shards.get(start);
    if (s) s.points.push(p);
    else shards.set(start, { created, points: [p] });
  }
  const accepted: Point[] = [];
  const rejected: Rejection[] = [];
  const indexedOnly: number[] = [];
  for (const s of shards.values()) {
    const out = writeShard(db, rpName, s.points, s.created);
    accepted.push(...out.accepted);
    rejected.push(...out.rejected);
    indexedOnly.push(...out.indexedOnly);
  }
  return { accepted, rejected, indexedOnly };
}

function writeShard(db: Database, rpName: string, points: readonly Point[], created: boolean): ShardAdmission {
  // The array both tries share: the first one compacts it in place.
  const batch = points.slice();
  let out = tryWrite(db, rpName, batch);
  if (out === undefined && !created) out = tryWrite(db, rpName, batch);
  if (out !== undefined) return out;
  return {
    accepted: [],
    rejected: points.map(() => ({ reason: 'field type conflict', cardinality: false, stage: 'shard-failed' as const })),
    indexedOnly: points.map((p) => p.sec),
  };
}

/** One Shard.WritePoints of 1.6.7; undefined when creating the new fields failed. */
function tryWrite(db: Database, rpName: string, batch: Point[]): ShardAdmission | undefined {
  const rejected: Rejection[] = [];
  const indexedOnly: number[] = [];
  let n = 0;
  // Checked against the types before any field of this try is created (none is, until the loop ends).
  for (const p of batch) {
    if (refused(db, p, rejected, indexedOnly)) continue;
    // The series first, as 1.x creates a batch's series before its fields (and so cardinality
    // limits count the points in order).
    indexSeries(db, p);
    batch[n++] = p;
  }
  const kept = batch.slice(0, n);
  for (const p of kept) {
    for (const f of p.fields) {
      const existing = db.index.fieldType(p.measurement, f.key);
      if (existing === f.type) continue;
      if (existing !== undefined) return undefined;
      const one = { ...p, fields: [f] };
      db.register(one);
      db.registerRpFields(rpName, one);
    }
  }
  const accepted: Point[] = [];
  const stored = new Set<Point>();
  for (const p of kept) {
    if (stored.has(p)) continue;
    stored.add(p);
    db.register(p);
    db.registerRpFields(rpName, p);
    accepted.push(p);
  }
  return { accepted, rejected, indexedOnly };
}

/**
 * 1.x creates a point's shard group before it refuses the point, and keeps it (its meta store):
 * SHOW SHARDS lists it, and a later batch there is a write into an existing shard. The shards
 * of refused points are therefore made on disk at once (`persist`: their directory and empty
 * file set), not at their first flush, which they may never have, or a restart would forget
 * them. Not fsynced: losing an empty shard to a power cut loses no point.
 */
export async function createShardsOf(set: ShardSet, secs: readonly number[], keptFromSec: number, shardGroupDurationSec: number, persist: (shard: Shard) => Promise<unknown>): Promise<void> {
  for (const sec of secs) {
    if (sec < keptFromSec) continue;
    const shard = set.findOrCreate(sec, shardGroupDurationSec);
    if (!shard.files) await persist(shard);
  }
}

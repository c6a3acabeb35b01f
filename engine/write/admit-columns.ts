/**
 * Admission of a worker-parsed batch whose only news is series and fields (a new host, a new
 * plugin, the first body after a start): what admitPoints registers for such a batch, in the
 * same order, without decoding the batch into Point objects, so the batch can then go to the
 * cache as columns (known-batch.ts) instead of point by point.
 *
 * Why: the point-by-point path costs ~20 µs per line while its code is cold, and every first
 * body after a start (and every new host of a fleet) takes it; meanwhile the parse worker idles,
 * since every request waits for its turn (perf/README.md, section 14).
 *
 * The batch must be one the point path would store whole: no parse errors, nothing beyond
 * retention, no measurement refused by the write guard, and no field with a second type (in the
 * index or within the batch). Those are checked before anything is registered. Cardinality
 * limits can only be checked as series are registered (each new series can use up room); a
 * refused series stops the admission and the caller takes the point path, which finds the
 * points before it admitted exactly as it would have admitted them itself.
 */
import type { Database } from '../database.js';
import { fieldTypeAt, valueAt, type ColumnBatch } from '../lineprotocol/columns.js';
import type { Field, FieldType, Point } from '../point.js';
import type { KnownBatchRules } from './known-batch.js';

/** True when every point was admitted (the batch is now a known batch); false: take the point path. */
export function admitNewColumns(db: Database, b: ColumnBatch, rules: KnownBatchRules): boolean {
  if (b.errors.length > 0 || b.minSec < rules.minSec) return false;
  const measurementOf = measurementIndexes(b);
  const measurements = measurementOf.names;
  if (rules.guard && measurements.some((m) => rules.guard!(m) !== undefined)) return false;
  if (!typesAgree(db, b)) return false;
  const fieldCount = b.fieldNames.length;
  // (measurement, field) pairs already in the index and in the policy's field set.
  const known = new Uint8Array(measurements.length * fieldCount);
  const k = b.kinds;
  for (let i = 0; i < k.length; i += 3) {
    const m = measurementOf.bySeries[k[i]!]!;
    const name = measurements[m]!;
    const field = b.fieldNames[k[i + 1]!]!;
    if (db.index.fieldType(name, field) !== undefined && db.fieldsInRp(rules.rp, name)?.has(field)) known[m * fieldCount + k[i + 1]!] = 1;
  }
  const seen = new Uint8Array(b.series.length);
  let j = 0;
  for (let i = 0; i < b.pointSeries.length; i++) {
    const s = b.pointSeries[i]!;
    const end = b.fieldEnd[i]!;
    const m = measurementOf.bySeries[s]!;
    const newSeries = seen[s] === 0 && db.index.seriesId(b.series[s]!.key) === undefined;
    let news = newSeries;
    for (let v = j; !news && v < end; v++) news = known[m * fieldCount + b.fieldName[v]!] === 0;
    if (news) {
      const p = pointAt(b, i, j, end);
      if (newSeries && db.index.check(p) !== undefined) return false;
      db.register(p);
      db.registerRpFields(rules.rp, p);
      for (let v = j; v < end; v++) known[m * fieldCount + b.fieldName[v]!] = 1;
    }
    seen[s] = 1;
    j = end;
  }
  return true;
}

/** A small number per measurement of the batch, for flat per-(measurement, field) flags. */
function measurementIndexes(b: ColumnBatch): { names: string[]; bySeries: Uint32Array } {
  const byName = new Map<string, number>();
  const bySeries = new Uint32Array(b.series.length);
  for (let s = 0; s < b.series.length; s++) {
    const name = b.series[s]!.measurement;
    let m = byName.get(name);
    if (m === undefined) byName.set(name, (m = byName.size));
    bySeries[s] = m;
  }
  return { names: [...byName.keys()], bySeries };
}

/** No field of the batch has a type other than the index's, and no new field comes with two types. */
function typesAgree(db: Database, b: ColumnBatch): boolean {
  const first = new Map<string, FieldType>();
  const k = b.kinds;
  for (let i = 0; i < k.length; i += 3) {
    const measurement = b.series[k[i]!]!.measurement;
    const field = b.fieldNames[k[i + 1]!]!;
    const type = k[i + 2]! as FieldType;
    const existing = db.index.fieldType(measurement, field);
    if (existing !== undefined) {
      if (existing !== type) return false;
      continue;
    }
    const key = `${measurement}\u0000${field}`;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, type);
    else if (seen !== type) return false;
  }
  return true;
}

/** Point i (its values j..end) as the point path would have decoded it. */
function pointAt(b: ColumnBatch, i: number, j: number, end: number): Point {
  const s = b.series[b.pointSeries[i]!]!;
  const fields: Field[] = [];
  for (let v = j; v < end; v++) fields.push({ key: b.fieldNames[b.fieldName[v]!]!, type: fieldTypeAt(b, v), value: valueAt(b, v) } as Field);
  return { seriesKey: s.key, measurement: s.measurement, tags: s.tags, fields, sec: b.sec[i]!, nsec: b.nsec[i]! };
}

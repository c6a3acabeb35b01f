/**
 * SELECT ... INTO: the result rows are written back through the engine's ingestion path as
 * points of the target measurement (`:MEASUREMENT` keeps the source name); result tags stay
 * tags, every other column becomes a field. Answers 1.x's `result` series with `written`.
 */
import { FieldType, makeSeriesKey, fromNs, pointName, type Field, type Point, type Tag } from '../../engine/index.js';
import type { Target } from '../ast/nodes.js';
import type { ResultSeries } from '../result.js';
import type { QueryContext } from './context.js';

/** A cell as the field 1.x writes: integer columns stay integers (cells hold them as numbers when safe). */
function fieldOf(key: string, v: number | bigint | string | boolean, type: FieldType | undefined): Field {
  if (typeof v === 'string') return { key, type: FieldType.String, value: v };
  if (typeof v === 'boolean') return { key, type: FieldType.Boolean, value: v };
  const integral = typeof v === 'bigint' || Number.isInteger(v);
  if (integral && type === FieldType.Unsigned) return { key, type: FieldType.Unsigned, value: BigInt(v) };
  if (typeof v === 'bigint' || (integral && type === FieldType.Integer)) return { key, type: FieldType.Integer, value: BigInt(v) };
  return { key, type: FieldType.Float, value: v };
}

export async function writeInto(target: Target, series: readonly ResultSeries[], ctx: QueryContext): Promise<ResultSeries> {
  const db = target.database || ctx.database;
  const points: Point[] = [];
  for (const s of series) {
    // Stored under the name 1.x lists (`a\,b` is `a,b`), which the WAL's line protocol keeps.
    const measurement = pointName(target.name ?? s.name ?? '');
    const tags: Tag[] = Object.entries(s.tags ?? {})
      .filter(([, v]) => v !== '')
      .map(([key, value]) => ({ key, value }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const seriesKey = makeSeriesKey(measurement, tags);
    for (const row of s.values) {
      const fields: Field[] = [];
      s.columns.forEach((c, i) => {
        if (i === 0) return;
        const v = row[i];
        // NaN (math on a value outside its domain, stddev() of one point) is left out, as null.
        if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) return;
        fields.push(fieldOf(c, v, s.columnTypes?.[i]));
      });
      if (fields.length === 0) continue;
      const { sec, nsec } = fromNs(typeof row[0] === 'bigint' ? row[0] : 0n);
      points.push({ seriesKey, measurement, tags, fields, sec, nsec });
    }
  }
  // 1.x normalizes the target as a source: without a policy, the request's `rp`, else the default
  const rp = target.retentionPolicy || ctx.retentionPolicy || undefined;
  if (points.length > 0) await ctx.engine.writePoints(db, rp, points);
  return { name: 'result', columns: ['time', 'written'], values: [[0n, points.length]] };
}

/**
 * A parsed write body in columnar form: what a parse worker sends back to the main thread.
 * Per point and per field value there are only typed arrays (moved with postMessage's transfer
 * list, not copied and not walked by the GC); strings appear once per distinct series and
 * field name of the body. `encodeColumns` / `decodeColumns` are an exact round trip of a
 * ParseResult (points in order, errors as they were).
 *
 *   series[s]        distinct series of the body, in first-use order
 *   fieldNames[k]    distinct field keys
 *   pointSeries[i]   s of point i;  sec[i], nsec[i] its time
 *   fieldEnd[i]      end (exclusive) of point i's values in the value columns
 *   fieldName[j]     k of value j;  fieldType[j] its FieldType, | BOXED when the value is in
 *                    boxed[num[j]] (strings, integers beyond 2^53); else num[j] is the value
 *                    (booleans as 0/1)
 *   kinds            distinct (series, field, type) triples by measurement: the type and
 *                    field-set checks of a write need only these
 */
import { FieldType, type Field, type Point, type Tag } from '../point.js';
import { BOXED, ColumnBuilder } from './column-builder.js';
import { FieldSet } from './field-set.js';
import { parseLineProtocolInto, type LineError, type ParseOptions, type ParseResult } from './parse.js';

const TYPE_MASK = 0x7f;

export interface SeriesRef {
  readonly key: string;
  readonly measurement: string;
  readonly tags: readonly Tag[];
}

export interface ColumnBatch {
  readonly series: readonly SeriesRef[];
  readonly fieldNames: readonly string[];
  readonly pointSeries: Uint32Array;
  readonly sec: Float64Array;
  readonly nsec: Int32Array;
  readonly fieldEnd: Uint32Array;
  readonly fieldName: Uint32Array;
  readonly fieldType: Uint8Array;
  readonly num: Float64Array;
  readonly boxed: readonly (string | bigint)[];
  /** Triples (series index, field name index, FieldType), one per distinct (measurement, field, type). */
  readonly kinds: Uint32Array;
  readonly errors: readonly LineError[];
  /** Smallest `sec` of the points (Infinity when none). */
  readonly minSec: number;
}

/** Columns of a ParseResult (the round trip's encode half). */
export function encodeColumns(parsed: ParseResult): ColumnBatch {
  const builder = new ColumnBuilder();
  const set = new FieldSet();
  for (const p of parsed.points) {
    set.count = 0;
    for (const f of p.fields) {
      const v = f.value;
      if (typeof v === 'string' || typeof v === 'bigint') set.push(f.key, f.type, 0, v);
      else set.push(f.key, f.type, typeof v === 'boolean' ? (v ? 1 : 0) : v, undefined);
    }
    builder.addPoint(p.seriesKey, p.measurement, p.tags, set, p.sec, p.nsec);
  }
  return builder.finish(parsed.errors);
}

/**
 * Parse a body straight into columns (what a parse worker runs): no Point objects. With
 * `into`, the columns are written into that buffer from byte `at` when they fit there.
 */
export function parseToColumns(body: Uint8Array, opts: ParseOptions, into?: { buffer: ArrayBufferLike; at: number }): ColumnBatch {
  const builder = new ColumnBuilder();
  const errors = parseLineProtocolInto(body, opts, builder);
  return (into && builder.finishInto(into.buffer, into.at, errors)) ?? builder.finish(errors);
}

/** The buffers to move with postMessage (finish puts every column in one buffer). */
export function columnBuffers(b: ColumnBatch): ArrayBuffer[] {
  const all = [b.pointSeries, b.sec, b.nsec, b.fieldEnd, b.fieldName, b.fieldType, b.num, b.kinds].map((a) => a.buffer as ArrayBuffer);
  return [...new Set(all)];
}

export function fieldTypeAt(b: ColumnBatch, j: number): FieldType {
  return (b.fieldType[j]! & TYPE_MASK) as FieldType;
}

/** Value j as the cache and Point fields hold it. */
export function valueAt(b: ColumnBatch, j: number): number | bigint | boolean | string {
  const t = b.fieldType[j]!;
  if (t & BOXED) return b.boxed[b.num[j]!]!;
  return t === FieldType.Boolean ? b.num[j] === 1 : b.num[j]!;
}

export function decodeColumns(b: ColumnBatch): ParseResult {
  const points: Point[] = [];
  let j = 0;
  for (let i = 0; i < b.pointSeries.length; i++) {
    const s = b.series[b.pointSeries[i]!]!;
    const fields: Field[] = [];
    for (const end = b.fieldEnd[i]!; j < end; j++) {
      fields.push({ key: b.fieldNames[b.fieldName[j]!]!, type: fieldTypeAt(b, j), value: valueAt(b, j) } as Field);
    }
    points.push({ seriesKey: s.key, measurement: s.measurement, tags: s.tags, fields, sec: b.sec[i]!, nsec: b.nsec[i]! });
  }
  return { points, errors: [...b.errors] };
}

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
import type { LineError, ParseResult } from './parse.js';

const BOXED = 0x80;
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

export function encodeColumns(parsed: ParseResult): ColumnBatch {
  const points = parsed.points;
  const np = points.length;
  let nf = 0;
  for (const p of points) nf += p.fields.length;
  const series: SeriesRef[] = [];
  const seriesIdx = new Map<string, number>();
  const fieldNames: string[] = [];
  const fieldIdx = new Map<string, number>();
  const kindSeen = new Set<string>();
  const kinds: number[] = [];
  const pointSeries = new Uint32Array(np);
  const sec = new Float64Array(np);
  const nsec = new Int32Array(np);
  const fieldEnd = new Uint32Array(np);
  const fieldName = new Uint32Array(nf);
  const fieldType = new Uint8Array(nf);
  const num = new Float64Array(nf);
  const boxed: (string | bigint)[] = [];
  let minSec = Infinity;
  let j = 0;
  for (let i = 0; i < np; i++) {
    const p = points[i]!;
    let s = seriesIdx.get(p.seriesKey);
    if (s === undefined) {
      s = series.length;
      seriesIdx.set(p.seriesKey, s);
      series.push({ key: p.seriesKey, measurement: p.measurement, tags: p.tags });
    }
    pointSeries[i] = s;
    sec[i] = p.sec;
    nsec[i] = p.nsec;
    if (p.sec < minSec) minSec = p.sec;
    for (const f of p.fields) {
      let k = fieldIdx.get(f.key);
      if (k === undefined) {
        k = fieldNames.length;
        fieldIdx.set(f.key, k);
        fieldNames.push(f.key);
      }
      const kind = `${k}\u0000${f.type}\u0000${p.measurement}`;
      if (!kindSeen.has(kind)) {
        kindSeen.add(kind);
        kinds.push(s, k, f.type);
      }
      fieldName[j] = k;
      const v = f.value;
      if (typeof v === 'string' || typeof v === 'bigint') {
        fieldType[j] = f.type | BOXED;
        num[j] = boxed.length;
        boxed.push(v);
      } else {
        fieldType[j] = f.type;
        num[j] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
      }
      j++;
    }
    fieldEnd[i] = j;
  }
  return {
    series,
    fieldNames,
    pointSeries,
    sec,
    nsec,
    fieldEnd,
    fieldName,
    fieldType,
    num,
    boxed,
    kinds: Uint32Array.from(kinds),
    errors: parsed.errors,
    minSec,
  };
}

/** The buffers to move with postMessage (each typed array owns its buffer: built exactly sized above). */
export function columnBuffers(b: ColumnBatch): ArrayBuffer[] {
  return [b.pointSeries, b.sec, b.nsec, b.fieldEnd, b.fieldName, b.fieldType, b.num, b.kinds].map((a) => a.buffer as ArrayBuffer);
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

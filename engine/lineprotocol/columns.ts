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
import { parseLineProtocolInto, type LineError, type ParseOptions, type ParseResult } from './parse.js';

const BOXED = 0x80;
const TYPE_MASK = 0x7f;
/** Field indices per measurement in a packed kind key; a body has far fewer distinct field keys. */
const KIND_STRIDE = 2 ** 24;

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
  for (const p of parsed.points) builder.add(p.seriesKey, p.measurement, p.tags, p.fields, p.sec, p.nsec);
  return builder.finish(parsed.errors);
}

/** Parse a body straight into columns (what a parse worker runs): no Point objects. */
export function parseToColumns(body: Uint8Array, opts: ParseOptions): ColumnBatch {
  const builder = new ColumnBuilder();
  const errors = parseLineProtocolInto(body, opts, (info, fields, sec, nsec) => builder.add(info.seriesKey, info.measurement, info.tags, fields, sec, nsec));
  return builder.finish(errors);
}

/** Accumulates points in order; plain arrays while growing, typed arrays once finished. */
class ColumnBuilder {
  private readonly series: SeriesRef[] = [];
  private readonly seriesIdx = new Map<string, number>();
  private readonly fieldNames: string[] = [];
  private readonly fieldIdx = new Map<string, number>();
  // (measurement, field, type) as one number: measurement index, field index and type packed.
  private readonly kindSeen = new Set<number>();
  private readonly kinds: number[] = [];
  private readonly measurementIdx = new Map<string, number>();
  private readonly seriesKindBase: number[] = [];
  private readonly pointSeries: number[] = [];
  private readonly sec: number[] = [];
  private readonly nsec: number[] = [];
  private readonly fieldEnd: number[] = [];
  private readonly fieldName: number[] = [];
  private readonly fieldType: number[] = [];
  private readonly num: number[] = [];
  private readonly boxed: (string | bigint)[] = [];
  private minSec = Infinity;

  add(seriesKey: string, measurement: string, tags: readonly Tag[], fields: readonly Field[], sec: number, nsec: number): void {
    let s = this.seriesIdx.get(seriesKey);
    if (s === undefined) {
      s = this.series.length;
      this.seriesIdx.set(seriesKey, s);
      this.series.push({ key: seriesKey, measurement, tags });
      let m = this.measurementIdx.get(measurement);
      if (m === undefined) this.measurementIdx.set(measurement, (m = this.measurementIdx.size));
      this.seriesKindBase.push(m * KIND_STRIDE);
    }
    this.pointSeries.push(s);
    this.sec.push(sec);
    this.nsec.push(nsec);
    if (sec < this.minSec) this.minSec = sec;
    const kindBase = this.seriesKindBase[s]!;
    for (const f of fields) {
      let k = this.fieldIdx.get(f.key);
      if (k === undefined) {
        k = this.fieldNames.length;
        // The worker then answers `failed` and the main thread parses this (absurd) body itself.
        if (k >= KIND_STRIDE) throw new RangeError('too many distinct field keys for a column batch');
        this.fieldIdx.set(f.key, k);
        this.fieldNames.push(f.key);
      }
      const kind = (kindBase + k) * 8 + f.type;
      if (!this.kindSeen.has(kind)) {
        this.kindSeen.add(kind);
        this.kinds.push(s, k, f.type);
      }
      this.fieldName.push(k);
      const v = f.value;
      if (typeof v === 'string' || typeof v === 'bigint') {
        this.fieldType.push(f.type | BOXED);
        this.num.push(this.boxed.length);
        this.boxed.push(v);
      } else {
        this.fieldType.push(f.type);
        this.num.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
      }
    }
    this.fieldEnd.push(this.fieldName.length);
  }

  finish(errors: readonly LineError[]): ColumnBatch {
    return {
      series: this.series,
      fieldNames: this.fieldNames,
      pointSeries: Uint32Array.from(this.pointSeries),
      sec: Float64Array.from(this.sec),
      nsec: Int32Array.from(this.nsec),
      fieldEnd: Uint32Array.from(this.fieldEnd),
      fieldName: Uint32Array.from(this.fieldName),
      fieldType: Uint8Array.from(this.fieldType),
      num: Float64Array.from(this.num),
      boxed: this.boxed,
      kinds: Uint32Array.from(this.kinds),
      errors,
      minSec: this.minSec,
    };
  }
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

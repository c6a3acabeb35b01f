/**
 * Builds a ColumnBatch (columns.ts) line by line, as the parser hands lines over.
 *
 * This runs once per value in the parse worker, so it allocates nothing per line: the columns
 * are typed arrays grown by doubling (and kept for the next body) and copied out once in
 * `finish` (column-layout.ts: into one buffer of their own, or into a slot shared with the
 * event loop); a series is found by its KeyInfo object (the parser's cached key) before
 * falling back to its key string; a field key is compared by identity with the key at the
 * same position of the previous line (field keys are interned, and lines of a body mostly
 * repeat their fields) before a map lookup; the (measurement, field, type) kinds are a bit
 * mask per measurement and field instead of a set.
 */
import type { FieldType, Tag } from '../point.js';
import type { ColumnBatch, SeriesRef } from './columns.js';
import type { FieldSet } from './field-set.js';
import type { KeyInfo } from './key.js';
import type { LineError } from './parse.js';
import { alignUp8, columnViews, layoutBytes, type ColumnCounts } from './column-layout.js';
import { columnBatch } from './column-batch.js';
import { objectArray } from '../object-array.js';

/** fieldType bit of a value held in `boxed` (strings, integers beyond 2^53). */
export const BOXED = 0x80;
/** A body has far fewer distinct field keys; more fail the batch (the main thread parses it). */
const MAX_FIELD_KEYS = 2 ** 24;

type Growable = Uint32Array | Float64Array | Int32Array | Uint8Array;

function ensure<T extends Growable>(a: T, n: number): T {
  if (n <= a.length) return a;
  const b = new (a.constructor as new (len: number) => T)(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

/** The per-point and per-value columns, while they grow (longer than their content). */
type GrowingColumns = Pick<ColumnBatch, 'pointSeries' | 'sec' | 'nsec' | 'fieldEnd' | 'fieldName' | 'fieldType' | 'num'>;

function newColumns(): GrowingColumns {
  return {
    pointSeries: new Uint32Array(256),
    sec: new Float64Array(256),
    nsec: new Int32Array(256),
    fieldEnd: new Uint32Array(256),
    fieldName: new Uint32Array(1024),
    fieldType: new Uint8Array(1024),
    num: new Float64Array(1024),
  };
}

/**
 * The growing columns of the last finished builder, taken over by the next one. Growing
 * them again for every body (a few MB of buffers per cpu body, outside the V8 heap) showed up
 * as tens of MiB of server RSS: freed buffers linger in the worker's malloc arena.
 */
let spare: GrowingColumns | undefined;

/** Builders made so far in this thread (their marks). */
let builders = 0;

export class ColumnBuilder {
  private readonly series: SeriesRef[] = objectArray();
  /** Tells this builder's numbering in KeyInfo.batchMark from earlier builders'. */
  private readonly mark = ++builders;
  private readonly byKey = new Map<string, number>();
  private readonly fieldNames: string[] = objectArray();
  private readonly fieldIdx = new Map<string, number>();
  private readonly lastKeys: string[] = objectArray();
  private readonly lastIdx: number[] = [];
  private readonly measurementIdx = new Map<string, number>();
  /** Per series: the types seen per field index of its measurement (bit 1 << FieldType). */
  private readonly seriesTypes: number[][] = objectArray();
  private readonly measurementTypes: number[][] = objectArray();
  private readonly kinds: number[] = [];
  private points = 0;
  private values = 0;
  private pointSeries: Uint32Array;
  private sec: Float64Array;
  private nsec: Int32Array;
  private fieldEnd: Uint32Array;
  private fieldName: Uint32Array;
  private fieldType: Uint8Array;
  private num: Float64Array;
  private readonly boxed: (string | bigint)[] = objectArray();
  private minSec = Infinity;

  constructor() {
    const c = spare ?? newColumns();
    spare = undefined;
    this.pointSeries = c.pointSeries;
    this.sec = c.sec;
    this.nsec = c.nsec;
    this.fieldEnd = c.fieldEnd;
    this.fieldName = c.fieldName;
    this.fieldType = c.fieldType;
    this.num = c.num;
  }

  /** A line from the parser: `info` is its cached key. */
  addLine(info: KeyInfo, fields: FieldSet, sec: number, nsec: number): void {
    if (info.batchMark !== this.mark) {
      info.batchSeries = this.seriesIndex(info.seriesKey, info.measurement, info.tags);
      info.batchMark = this.mark;
    }
    this.add(info.batchSeries, fields, sec, nsec);
  }

  /** A point given by its parts (Points re-encoded as columns). */
  addPoint(seriesKey: string, measurement: string, tags: readonly Tag[], fields: FieldSet, sec: number, nsec: number): void {
    this.add(this.seriesIndex(seriesKey, measurement, tags), fields, sec, nsec);
  }

  private seriesIndex(key: string, measurement: string, tags: readonly Tag[]): number {
    let s = this.byKey.get(key);
    if (s !== undefined) return s;
    s = this.series.length;
    this.byKey.set(key, s);
    this.series.push({ key, measurement, tags });
    let m = this.measurementIdx.get(measurement);
    if (m === undefined) {
      m = this.measurementTypes.length;
      this.measurementIdx.set(measurement, m);
      this.measurementTypes.push([]);
    }
    this.seriesTypes.push(this.measurementTypes[m]!);
    return s;
  }

  private add(s: number, fields: FieldSet, sec: number, nsec: number): void {
    const i = this.points++;
    if (i === this.pointSeries.length) {
      this.pointSeries = ensure(this.pointSeries, i + 1);
      this.sec = ensure(this.sec, i + 1);
      this.nsec = ensure(this.nsec, i + 1);
      this.fieldEnd = ensure(this.fieldEnd, i + 1);
    }
    this.pointSeries[i] = s;
    this.sec[i] = sec;
    this.nsec[i] = nsec;
    // Stored on every line: a store only when the minimum moves ran for the first line of a
    // body and so had no type feedback when `add` was optimised (a deopt on the next body).
    this.minSec = sec < this.minSec ? sec : this.minSec;
    const n = fields.count;
    let j = this.values;
    if (j + n > this.fieldName.length) {
      this.fieldName = ensure(this.fieldName, j + n);
      this.fieldType = ensure(this.fieldType, j + n);
      this.num = ensure(this.num, j + n);
    }
    const typesSeen = this.seriesTypes[s]!;
    for (let f = 0; f < n; f++, j++) {
      const key = fields.keys[f]!;
      const k = this.lastKeys[f] === key ? this.lastIdx[f]! : this.fieldIndex(key, f);
      const type = fields.types[f]! as FieldType;
      const seen = typesSeen[k] ?? 0;
      if ((seen & (1 << type)) === 0) {
        typesSeen[k] = seen | (1 << type);
        this.kinds.push(s, k, type);
      }
      this.fieldName[j] = k;
      const box = fields.boxes[f];
      if (box === undefined) {
        this.fieldType[j] = type;
        this.num[j] = fields.nums[f]!;
      } else {
        this.fieldType[j] = type | BOXED;
        this.num[j] = this.boxed.length;
        this.boxed.push(box);
      }
    }
    this.values = j;
    this.fieldEnd[i] = j;
  }

  private fieldIndex(key: string, position: number): number {
    let k = this.fieldIdx.get(key);
    if (k === undefined) {
      k = this.fieldNames.length;
      // The worker then answers `failed` and the main thread parses this (absurd) body itself.
      if (k >= MAX_FIELD_KEYS) throw new RangeError('too many distinct field keys for a column batch');
      this.fieldIdx.set(key, k);
      this.fieldNames.push(key);
    }
    this.lastKeys[position] = key;
    this.lastIdx[position] = k;
    return k;
  }

  /** The batch, its columns in one exactly sized buffer of their own (to be transferred). */
  finish(errors: readonly LineError[]): ColumnBatch {
    return this.finishOn(new ArrayBuffer(layoutBytes(this.counts())), 0, errors);
  }

  /**
   * The batch with its columns written into `buffer` from byte `at` (a parse slot shared with
   * the event loop), or undefined when they do not fit there (the builder is then unchanged).
   */
  finishInto(buffer: ArrayBufferLike, at: number, errors: readonly LineError[]): ColumnBatch | undefined {
    const start = alignUp8(at);
    if (start + layoutBytes(this.counts()) > buffer.byteLength) return undefined;
    return this.finishOn(buffer, start, errors);
  }

  private counts(): ColumnCounts {
    return { points: this.points, values: this.values, kinds: this.kinds.length };
  }

  /** The builder is done afterwards: its growing columns go to the next builder. */
  private finishOn(buffer: ArrayBufferLike, at: number, errors: readonly LineError[]): ColumnBatch {
    const n = this.points;
    const m = this.values;
    const v = columnViews(buffer, at, this.counts());
    v.pointSeries.set(this.pointSeries.subarray(0, n));
    v.sec.set(this.sec.subarray(0, n));
    v.nsec.set(this.nsec.subarray(0, n));
    v.fieldEnd.set(this.fieldEnd.subarray(0, n));
    v.fieldName.set(this.fieldName.subarray(0, m));
    v.fieldType.set(this.fieldType.subarray(0, m));
    v.num.set(this.num.subarray(0, m));
    v.kinds.set(this.kinds);
    const { pointSeries, sec, nsec, fieldEnd, fieldName, fieldType, num } = this;
    spare = { pointSeries, sec, nsec, fieldEnd, fieldName, fieldType, num };
    return columnBatch(v, { series: this.series, fieldNames: this.fieldNames, boxed: this.boxed, errors, minSec: this.minSec });
  }
}

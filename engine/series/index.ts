/**
 * Series index of one database: series key ↔ id, measurement → tags/fields/postings.
 * In memory; durability comes from SeriesLog (and, after damage, from rebuilding out of the
 * TSM keys and the WAL, which both carry every series).
 */
import { CardinalityLimitError, FieldTypeConflictError } from '../errors.js';
import { FIELD_TYPE_NAMES, type FieldType, type Point, type Tag } from '../point.js';
import { MeasurementIndex, byteOrder } from './measurement.js';
import { schemaChanged } from '../meta/schema-version.js';
import { goQuote } from '../go-quote.js';

export interface CardinalityLimits {
  /** Distinct values per tag key per measurement; 0 = unlimited. */
  readonly maxTagValuesPerMeasurement: number;
  /** Measurements per database; 0 = unlimited. */
  readonly maxMeasurementsPerDatabase: number;
}

export interface SeriesInfo {
  readonly id: number;
  readonly key: string;
  readonly measurement: string;
  readonly tags: readonly Tag[];
}

/** What the limits look at of a series. */
export type SeriesShape = Pick<Point, 'seriesKey' | 'measurement' | 'tags'>;

/** Changes a write made to the index, for the persistent log. */
export interface IndexDelta {
  readonly series: SeriesInfo[];
  readonly fields: { measurement: string; field: string; type: FieldType }[];
}

export class SeriesIndex {
  private readonly ids = new Map<string, number>();
  private readonly series: (SeriesInfo | undefined)[] = [];
  private readonly measurements = new Map<string, MeasurementIndex>();

  constructor(private readonly limits: CardinalityLimits) {}

  get seriesCount(): number {
    return this.ids.size;
  }

  measurement(name: string): MeasurementIndex | undefined {
    return this.measurements.get(name);
  }

  measurementNames(): string[] {
    return [...this.measurements.keys()].sort(byteOrder);
  }

  seriesId(key: string): number | undefined {
    return this.ids.get(key);
  }

  seriesById(id: number): SeriesInfo | undefined {
    return this.series[id];
  }

  /** The registered type of a field, if the measurement has it. */
  fieldType(measurement: string, field: string): FieldType | undefined {
    return this.measurements.get(measurement)?.fields.get(field);
  }

  /**
   * Check a point against the cardinality limits and registered field types without changing
   * anything; returns the error that rejects it. Limits come first: 1.x creates a batch's
   * series before it checks fields, and a series it refuses names the answer. Points of a
   * batch are checked and registered one after another, so earlier points of the same batch
   * count.
   */
  check(p: Point): Error | undefined {
    return this.checkSeries(p) ?? this.checkFields(p);
  }

  /** A field of `p` whose type differs from the registered one. */
  checkFields(p: Point): FieldTypeConflictError | undefined {
    const m = this.measurements.get(p.measurement);
    if (!m) return undefined;
    for (const f of p.fields) {
      const existing = m.fields.get(f.key);
      if (existing !== undefined && existing !== f.type) {
        return new FieldTypeConflictError(p.measurement, f.key, FIELD_TYPE_NAMES[f.type], FIELD_TYPE_NAMES[existing]);
      }
    }
    return undefined;
  }

  /**
   * Whether a new series would pass the cardinality limits (an existing one always does).
   * `limitName` is the name 1.x counts tag values under: the point's own name, which for a
   * line whose fields no statement reads (KeyInfo.fieldMeasurement) is not the measurement
   * the series is listed under, so such a line is measured against the listed measurement of
   * that name, if any (recorded from 1.6.7: `a\\,b,t=9` is refused once `a\\\,b` has
   * the limit's values, and passes whatever `a,b` has). The measurement limit (Strata's own)
   * counts the measurement the series would create.
   */
  checkSeries(s: SeriesShape, limitName: string = s.measurement): CardinalityLimitError | undefined {
    if (this.ids.has(s.seriesKey)) return undefined;
    const maxM = this.limits.maxMeasurementsPerDatabase;
    if (maxM > 0 && this.measurements.size >= maxM && !this.measurements.has(s.measurement)) {
      return new CardinalityLimitError(`max-measurements-per-database limit exceeded (${this.measurements.size}/${maxM}): measurement=${goQuote(s.measurement)}`);
    }
    const maxV = this.limits.maxTagValuesPerMeasurement;
    const m = this.measurements.get(limitName);
    if (maxV > 0 && m) {
      for (const t of s.tags) {
        if (m.hasTagValue(t.key, t.value)) continue;
        const count = m.tagValueCount(t.key);
        if (count >= maxV) {
          return new CardinalityLimitError(
            `max-values-per-tag limit exceeded (${count}/${maxV}): measurement=${goQuote(limitName)} tag=${goQuote(t.key)} value=${goQuote(t.value)}`,
          );
        }
      }
    }
    return undefined;
  }

  /** Register a point's series and field types (after `check`). Records what was new in `delta`. */
  register(p: Point, delta: IndexDelta): number {
    let m = this.measurements.get(p.measurement);
    if (!m) {
      m = this.addMeasurement(p.measurement);
    }
    for (const f of p.fields) {
      if (!m.fields.has(f.key)) {
        m.fields.set(f.key, f.type);
        schemaChanged();
        delta.fields.push({ measurement: p.measurement, field: f.key, type: f.type });
      }
    }
    let id = this.ids.get(p.seriesKey);
    if (id === undefined) {
      id = this.series.length;
      const info: SeriesInfo = { id, key: p.seriesKey, measurement: p.measurement, tags: p.tags };
      this.addSeriesInfo(info);
      delta.series.push(info);
    }
    return id;
  }

  /** Replay path: add a series with a known id (from the log). */
  restoreSeries(info: SeriesInfo): void {
    if (this.ids.has(info.key)) return;
    while (this.series.length < info.id) this.series.push(undefined);
    this.addSeriesInfo(info);
  }

  restoreField(measurement: string, field: string, type: FieldType): void {
    let m = this.measurements.get(measurement);
    if (!m) {
      m = this.addMeasurement(measurement);
    }
    if (!m.fields.has(field)) {
      m.fields.set(field, type);
      schemaChanged();
    }
  }

  private addMeasurement(name: string): MeasurementIndex {
    const m = new MeasurementIndex(name);
    this.measurements.set(name, m);
    schemaChanged();
    return m;
  }

  private addSeriesInfo(info: SeriesInfo): void {
    this.ids.set(info.key, info.id);
    this.series[info.id] = info;
    let m = this.measurements.get(info.measurement);
    if (!m) {
      m = this.addMeasurement(info.measurement);
    }
    m.addSeries(info.id, info.tags);
  }

  /** Next id a new series would get (ids are never reused). */
  get nextId(): number {
    return this.series.length;
  }

  /** Drop series by id; a measurement left without series disappears with its fields. */
  dropSeries(ids: readonly number[]): void {
    const byMeasurement = new Map<string, number[]>();
    for (const id of ids) {
      const s = this.series[id];
      if (!s) continue;
      this.series[id] = undefined;
      this.ids.delete(s.key);
      const list = byMeasurement.get(s.measurement) ?? [];
      list.push(id);
      byMeasurement.set(s.measurement, list);
    }
    for (const [name, list] of byMeasurement) {
      const m = this.measurements.get(name);
      if (!m) continue;
      m.removeSeries(list.sort((a, b) => a - b));
      if (m.seriesIds.length === 0) {
        this.measurements.delete(name);
        schemaChanged();
      }
    }
  }
}

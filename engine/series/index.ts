/**
 * Series index of one database: series key ↔ id, measurement → tags/fields/postings.
 * In memory; durability comes from SeriesLog (and, after damage, from rebuilding out of the
 * TSM keys and the WAL, which both carry every series).
 */
import { CardinalityLimitError, FieldTypeConflictError } from '../errors.js';
import { FIELD_TYPE_NAMES, type FieldType, type Point, type Tag } from '../point.js';
import { MeasurementIndex, byteOrder } from './measurement.js';
import { schemaChanged } from '../meta/schema-version.js';

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
   * Check a point against registered field types and the cardinality limits without changing
   * anything; returns the error that rejects it. Points of a batch are checked and registered
   * one after another, so earlier points of the same batch count.
   */
  check(p: Point): Error | undefined {
    const m = this.measurements.get(p.measurement);
    if (m) {
      for (const f of p.fields) {
        const existing = m.fields.get(f.key);
        if (existing !== undefined && existing !== f.type) {
          return new FieldTypeConflictError(p.measurement, f.key, FIELD_TYPE_NAMES[f.type], FIELD_TYPE_NAMES[existing]);
        }
      }
    }
    if (this.ids.has(p.seriesKey)) return undefined;
    const maxM = this.limits.maxMeasurementsPerDatabase;
    if (!m && maxM > 0 && this.measurements.size >= maxM) {
      return new CardinalityLimitError(
        `max-measurements-per-database limit exceeded (${this.measurements.size}/${maxM}): measurement="${p.measurement}"`,
      );
    }
    const maxV = this.limits.maxTagValuesPerMeasurement;
    if (maxV > 0 && m) {
      for (const t of p.tags) {
        if (m.hasTagValue(t.key, t.value)) continue;
        const count = m.tagValueCount(t.key);
        if (count >= maxV) {
          return new CardinalityLimitError(
            `max-values-per-tag limit exceeded (${count}/${maxV}): measurement="${p.measurement}" tag="${t.key}" value="${t.value}"`,
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

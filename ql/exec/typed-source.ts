/**
 * One type per field across a SELECT's sources, as 1.x compiles it: a field's type is its
 * `::float` / `::integer` / `::unsigned` / `::string` / `::boolean` hint, else the smallest of
 * its types in the sources in influxql's DataType order (float < integer < string < boolean <
 * unsigned): a regex FROM over an integer, a float and a string `v` reads `v` as floats.
 * Every source then reads the field as that type, like 1.x's storage cursors: numbers are
 * cast (a float truncates toward zero to an integer), any other mismatch reads as no value.
 */
import { FieldType, type Batch, type Cursor, type TagExpr, type ValueColumn } from '../../engine/index.js';
import type { DataType, Expr, SelectStatement } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';
import type { WindowSpec } from './window.js';
import type { MeasurementSource, SeriesRef } from './source.js';

const HINTS: Partial<Record<DataType, FieldType>> = {
  float: FieldType.Float,
  integer: FieldType.Integer,
  unsigned: FieldType.Unsigned,
  string: FieldType.String,
  boolean: FieldType.Boolean,
};

/** influxql.DataType values: the smaller wins when sources disagree. */
const ORDER: Readonly<Record<FieldType, number>> = {
  [FieldType.Float]: 1,
  [FieldType.Integer]: 2,
  [FieldType.String]: 3,
  [FieldType.Boolean]: 4,
  [FieldType.Unsigned]: 9,
};

const isNumber = (t: FieldType): boolean => t === FieldType.Float || t === FieldType.Integer || t === FieldType.Unsigned;

/** The type hint of each field the statement's columns name with one (the first hint wins). */
function typeHints(stmt: SelectStatement): Map<string, FieldType> {
  const hints = new Map<string, FieldType>();
  const visit = (e: Expr): void => {
    if (e.kind !== 'VarRef' || e.type === null) return;
    const t = HINTS[e.type];
    if (t !== undefined && !hints.has(e.name)) hints.set(e.name, t);
  };
  for (const f of stmt.fields) walkExpr(f.expr, visit);
  return hints;
}

/** The sources, each wrapped to read the statement's field types where its own differ. */
export function unifyFieldTypes(sources: readonly MeasurementSource[], stmt: SelectStatement): MeasurementSource[] {
  const hints = typeHints(stmt);
  const target = new Map(hints);
  for (const s of sources) {
    for (const [f, t] of s.fieldTypes()) {
      const had = target.get(f);
      if (had === undefined || (!hints.has(f) && ORDER[t] < ORDER[had])) target.set(f, t);
    }
  }
  return sources.map((s) => ([...s.fieldTypes()].some(([f, t]) => target.get(f) !== t) ? new TypedSource(s, target) : s));
}

class TypedSource implements MeasurementSource {
  private readonly types = new Map<string, FieldType>();

  constructor(
    private readonly inner: MeasurementSource,
    target: ReadonlyMap<string, FieldType>,
  ) {
    for (const [f, own] of inner.fieldTypes()) {
      const t = target.get(f) ?? own;
      // A field that cannot be read as the statement's type is absent from this source.
      if (t === own || (isNumber(t) && isNumber(own))) this.types.set(f, t);
    }
  }

  get name(): string {
    return this.inner.name;
  }

  get fromSubquery(): boolean | undefined {
    return this.inner.fromSubquery;
  }

  get rowsInSeriesOrder(): boolean | undefined {
    return this.inner.rowsInSeriesOrder;
  }

  get tiesInSeriesOrder(): boolean | undefined {
    return this.inner.tiesInSeriesOrder;
  }

  get seriesWindows(): WindowSpec | undefined {
    return this.inner.seriesWindows;
  }

  get runStream(): boolean | undefined {
    return this.inner.runStream;
  }

  fieldTypes(): ReadonlyMap<string, FieldType> {
    return this.types;
  }

  fieldsFromTags(): ReadonlySet<string> {
    return this.inner.fieldsFromTags?.() ?? new Set();
  }

  unlistedFields(): ReadonlySet<string> {
    return this.inner.unlistedFields?.() ?? new Set();
  }

  untypedFields(): ReadonlySet<string> {
    return this.inner.untypedFields?.() ?? new Set();
  }

  tagKeys(): readonly string[] {
    return this.inner.tagKeys();
  }

  series(expr: TagExpr): readonly SeriesRef[] {
    return this.inner.series(expr);
  }

  groupTags(): ReadonlySet<string> {
    return this.inner.groupTags?.() ?? new Set();
  }

  rowCursor(series: SeriesRef, minNs: bigint, maxNs: bigint, ascending: boolean, everyRow?: boolean): Cursor | undefined {
    return this.inner.rowCursor?.(series, minNs, maxNs, ascending, everyRow);
  }

  cursor(series: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor {
    const to = this.types.get(field);
    const c = this.inner.cursor(series, field, minNs, maxNs, ascending);
    if (to === undefined || c.type === undefined || c.type === to) return to === undefined ? { type: undefined, next: async () => null, nextNow: () => null, close: () => c.close() } : c;
    return {
      type: to,
      next: async () => {
        const b = await c.next();
        return b && castBatch(b, to);
      },
      nextNow: () => {
        const b = c.nextNow?.();
        return b && castBatch(b, to);
      },
      close: () => c.close(),
    };
  }
}

/** A batch read as another numeric type; value statistics are dropped (they describe the stored values). */
function castBatch(b: Batch, to: FieldType): Batch {
  const stats = b.stats && { count: b.stats.count, firstOffset: b.stats.firstOffset, lastOffset: b.stats.lastOffset };
  return { base: b.base, offsets: b.offsets, column: castColumn(b.column, to), ...(stats && { stats }) };
}

function castColumn(col: ValueColumn, to: FieldType): ValueColumn {
  const vals = col.values as ArrayLike<number | bigint>;
  switch (to) {
    case FieldType.Float:
      return { type: to, values: Float64Array.from(vals, Number) };
    case FieldType.Integer:
      if (col.type === FieldType.Unsigned) return { type: to, values: BigInt64Array.from(vals, (v) => BigInt.asIntN(64, BigInt(v))) };
      return { type: to, values: Float64Array.from(vals, (v) => Math.trunc(Number(v))) };
    default:
      return { type: FieldType.Unsigned, values: BigUint64Array.from(vals, (v) => BigInt.asUintN(64, BigInt(typeof v === 'number' ? Math.trunc(v) : v))) };
  }
}

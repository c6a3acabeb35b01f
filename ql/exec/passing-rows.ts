/**
 * Aggregates under a WHERE on fields read rows, not columns: a series' fields joined by time,
 * kept where the condition is true, each value handed to the reducers as a one-point column.
 */
import { FieldType, type ValueColumn } from '../../engine/index.js';
import { isTag } from '../plan/projection.js';
import { conditionTagValue, isConditionTag } from '../plan/condition.js';
import { evaluate, type RowScope } from './eval.js';
import { RowReader } from './row-reader.js';
import { evalTypes, fieldRefs, type GroupRun } from './select-raw.js';
import type { SeriesRef } from './source.js';
import type { Scalar } from './value.js';

/** One value as a one-point column (reducers take columns); undefined for null. */
export function singleValueColumn(type: FieldType, v: Scalar): ValueColumn | undefined {
  if (v === null) return undefined;
  switch (type) {
    case FieldType.Float:
      return { type, values: Float64Array.of(Number(v)) };
    case FieldType.Integer:
      return typeof v === 'bigint' ? { type, values: BigInt64Array.of(v) } : { type, values: Float64Array.of(Number(v)) };
    case FieldType.Unsigned:
      return typeof v === 'bigint' ? { type, values: BigUint64Array.of(v) } : { type, values: Float64Array.of(Number(v)) };
    case FieldType.Boolean:
      return { type, values: Uint8Array.of(v ? 1 : 0) };
    case FieldType.String:
      return { type, values: [String(v)] };
  }
}

/**
 * Calls `onRow` for each row of `ref` in [min, max] where `g.rowFilter` is true, with a reader
 * of the named fields' values in that row (null where the row has none); `onRow` returning
 * false stops the read.
 */
export async function forEachPassingRow(
  g: GroupRun,
  ref: SeriesRef,
  fields: readonly string[],
  min: bigint,
  max: bigint,
  onRow: (time: bigint, valueOf: (field: string) => Scalar) => boolean | void,
): Promise<void> {
  const { plan, source, rowFilter } = g;
  const types = source.fieldTypes();
  const read = [...new Set([...fields, ...fieldRefs([rowFilter], plan)])].filter((f) => types.has(f));
  const fi = new Map(read.map((f, i) => [f, i]));
  const et = evalTypes(source);
  const reader = new RowReader(read.map((f) => source.cursor(ref, f, min, max, true)), true);
  try {
    for (let row = await reader.next(); row; row = await reader.next()) {
      const r = row;
      const valueOf = (field: string): Scalar => r.values[fi.get(field) ?? -1] ?? null;
      const scope: RowScope = { time: r.time, lookup: (name, hint) => (isConditionTag(name, hint, plan.schema) ? conditionTagValue(ref.tags, name) : valueOf(name)), condition: true };
      if (rowFilter && evaluate(rowFilter, scope, et) !== true) continue;
      if (onRow(r.time, valueOf) === false) break;
    }
  } finally {
    reader.close();
  }
}

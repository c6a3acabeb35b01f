/**
 * Chooses how the rows of one series are read for a raw SELECT: all fields joined by time
 * (RowReader), or the WHERE's fields first and the rest only where it passes
 * (FilteredRowReader). The second is chosen only when it cannot change the answer: the WHERE
 * reads nothing but this row's fields, tags and literals, and is not true for this series
 * when every field it reads is null, so no row without a condition field can pass.
 */
import type { Expr } from '../ast/nodes.js';
import { isTag } from '../plan/projection.js';
import { evaluate, type EvalTypes, type RowScope } from './eval.js';
import { FilteredRowReader } from './filtered-row-reader.js';
import { RowReader, type Row } from './row-reader.js';
import type { SelectPlan } from './select-plan.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import type { Scalar } from './value.js';

export interface RowSource {
  next(): Promise<Row | null>;
  close(): void;
}

/** Only field/tag references, literals and operators: no time, calls or wildcards. */
function readsOnlyRow(e: Expr): boolean {
  switch (e.kind) {
    case 'VarRef':
      return !(e.name.toLowerCase() === 'time' && e.type === null);
    case 'Binary':
      return readsOnlyRow(e.lhs) && readsOnlyRow(e.rhs);
    case 'Unary':
      return readsOnlyRow(e.expr);
    case 'Integer':
    case 'Unsigned':
    case 'Number':
    case 'String':
    case 'Boolean':
    case 'Regex':
      return true;
    default:
      return false;
  }
}

/**
 * A projected column that is a plain field or tag reference, read straight from the row: the
 * same value `evaluate` gives through a RowScope, without the interpreter. Undefined otherwise.
 */
export function plainReference(
  e: Expr,
  schema: SelectPlan['schema'],
  fieldIndex: ReadonlyMap<string, number>,
): ((values: readonly Scalar[], tags: Readonly<Record<string, string>>) => Scalar) | undefined {
  if (e.kind !== 'VarRef' || (e.name.toLowerCase() === 'time' && e.type === null)) return undefined;
  const name = e.name;
  if (isTag(name, e.type, schema)) return (_, tags) => tags[name] ?? null;
  const i = fieldIndex.get(name);
  if (i === undefined) return () => null;
  return (values) => values[i] ?? null;
}

/** A RowScope over a series' tags and the condition fields' values of the row under test. */
function condScope(schema: SelectPlan['schema'], tags: Readonly<Record<string, string>>, condFields: readonly string[], values: () => readonly Scalar[]): RowScope {
  const slotOf = new Map<string, number | string | null>(); // by name and hint: field slot, or the tag's value
  return {
    time: 0n,
    lookup: (name, hint) => {
      const key = hint === null ? name : `${name}::${hint}`;
      let slot = slotOf.get(key);
      if (slot === undefined) {
        slot = isTag(name, hint, schema) ? (tags[name] ?? null) : condFields.indexOf(name);
        slotOf.set(key, slot);
      }
      if (typeof slot !== 'number') return slot;
      return slot < 0 ? null : (values()[slot] ?? null);
    },
  };
}

export function openSeriesRows(
  g: { readonly plan: SelectPlan; readonly source: MeasurementSource; readonly rowFilter: Expr | null },
  ref: SeriesRef,
  /** Fields of the row, in row slot order. */
  fields: readonly string[],
  /** The subset of `fields` the WHERE reads. */
  condFields: readonly string[],
  types: EvalTypes,
): RowSource {
  const { plan, source, rowFilter } = g;
  const cursor = (f: string) => source.cursor(ref, f, plan.time.min, plan.time.max, plan.ascending);
  // One scope for every row of the series: `current` holds the condition values being tested.
  // The WHERE reads no time (readsOnlyRow), so the scope's time is never looked at.
  let current: readonly Scalar[] = [];
  const scope = condScope(plan.schema, ref.tags, condFields, () => current);
  if (
    !rowFilter ||
    condFields.length === 0 ||
    condFields.length === fields.length ||
    !readsOnlyRow(rowFilter) ||
    evaluate(rowFilter, scope, types) === true
  ) {
    return new RowReader(fields.map(cursor), plan.ascending);
  }
  const others = fields.filter((f) => !condFields.includes(f));
  return new FilteredRowReader(
    condFields.map(cursor),
    condFields.map((f) => fields.indexOf(f)),
    others.map(cursor),
    others.map((f) => fields.indexOf(f)),
    fields.length,
    plan.ascending,
    (values) => {
      current = values;
      return evaluate(rowFilter, scope, types) === true;
    },
  );
}

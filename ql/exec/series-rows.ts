/**
 * Chooses how the rows of one series are read for a raw SELECT: all fields joined by time
 * (RowReader), or the WHERE's fields first and the rest only where it passes
 * (FilteredRowReader). The second is chosen only when it cannot change the answer: the WHERE
 * reads nothing but this row's fields, tags and literals, and is not true for this series
 * when every field it reads is null, so no row without a condition field can pass.
 */
import type { Expr } from '../ast/nodes.js';
import { isTag } from '../plan/projection.js';
import { conditionTagValue, isConditionTag } from '../plan/condition.js';
import { evaluate, type EvalTypes, type RowScope } from './eval.js';
import { compileCondition, type Resolve } from './compile-condition.js';
import { FilteredRowReader } from './filtered-row-reader.js';
import { rangeCheck } from './condition-range.js';
import { RowReader, type Row } from './row-reader.js';
import type { SelectPlan } from './select-plan.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import type { Scalar } from './value.js';

export interface RowSource {
  next(): Promise<Row | null>;
  /** The next row if it is there without awaiting (RowReader.nextNow); undefined: call next(). */
  nextNow?(): Row | null | undefined;
  close(): void;
  /** Every row it yields already passed the WHERE (condition-first reading). */
  readonly appliesWhere?: boolean;
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

/** A plain column read straight from the row: a field's slot in the row's values, or a tag. */
export type PlainColumn = { readonly slot: number } | { readonly tag: string };

/**
 * A projected column that is a plain field or tag reference, read straight from the row: the
 * same value `evaluate` gives through a RowScope, without the interpreter (slot -1: a field
 * this measurement lacks, always null). Undefined otherwise.
 */
export function plainReference(e: Expr, schema: SelectPlan['schema'], fieldIndex: ReadonlyMap<string, number>): PlainColumn | undefined {
  if (e.kind !== 'VarRef' || (e.name.toLowerCase() === 'time' && e.type === null)) return undefined;
  if (isTag(e.name, e.type, schema)) return { tag: e.name };
  return { slot: fieldIndex.get(e.name) ?? -1 };
}

/** Where the WHERE's references of one series come from: a tag's value, or a condition field's slot. */
function condResolve(schema: SelectPlan['schema'], tags: Readonly<Record<string, string>>, condFields: readonly string[]): Resolve {
  const memo = new Map<string, ReturnType<Resolve>>();
  return (name, hint) => {
    const key = hint === null ? name : `${name}::${hint}`;
    let r = memo.get(key);
    if (!r) {
      const slot = condFields.indexOf(name);
      r = isConditionTag(name, hint, schema) ? { value: conditionTagValue(tags, name) } : slot < 0 ? { value: null } : { slot };
      memo.set(key, r);
    }
    return r;
  };
}

/** A RowScope over the resolved references and the condition values of the row under test. */
function condScope(resolve: Resolve, values: () => readonly Scalar[]): RowScope {
  return {
    time: 0n,
    lookup: (name, hint) => {
      const r = resolve(name, hint);
      return 'value' in r ? r.value : (values()[r.slot] ?? null);
    },
    condition: true,
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
  /** Read only this part of the query's range (one shard's: select-raw.ts merges shard by shard). */
  span?: { readonly min: bigint; readonly max: bigint },
  /** Every row of a subquery, also one without a value (the columns read one of its groupTags). */
  everyRow = false,
): RowSource {
  const { plan, source, rowFilter } = g;
  const min = span?.min ?? plan.time.min;
  const max = span?.max ?? plan.time.max;
  const cursor = (f: string) => source.cursor(ref, f, min, max, plan.ascending);
  // One scope for every row of the series: `current` holds the condition values being tested.
  // The WHERE reads no time (readsOnlyRow), so the scope's time is never looked at.
  let current: readonly Scalar[] = [];
  const resolve = condResolve(plan.schema, ref.tags, condFields);
  const scope = condScope(resolve, () => current);
  if (
    !rowFilter ||
    condFields.length === 0 ||
    condFields.length === fields.length ||
    !readsOnlyRow(rowFilter) ||
    evaluate(rowFilter, scope, types) === true
  ) {
    // A source's row cursor goes last: its slot (fields.length) tells a row exists where every field is null.
    const rows = source.rowCursor?.(ref, min, max, plan.ascending, everyRow);
    return new RowReader(rows ? [...fields.map(cursor), rows] : fields.map(cursor), plan.ascending);
  }
  const others = fields.filter((f) => !condFields.includes(f));
  const condField = condFields.length === 1 ? condFields[0] : undefined;
  // Only an unhinted reference: a type hint may change what the row condition sees.
  const isCondField = (e: Expr) => e.kind === 'VarRef' && e.type === null && e.name === condField && 'slot' in resolve(e.name, null);
  return new FilteredRowReader(
    condFields.map(cursor),
    condFields.map((f) => fields.indexOf(f)),
    others.map((f) => (from: bigint) => source.cursor(ref, f, plan.ascending ? from : min, plan.ascending ? max : from, plan.ascending)),
    others.map((f) => fields.indexOf(f)),
    fields.length,
    plan.ascending,
    compileCondition(rowFilter, resolve, types) ??
      ((values) => {
        current = values;
        return evaluate(rowFilter, scope, types) === true;
      }),
    condField === undefined ? undefined : rangeCheck(rowFilter, isCondField, types),
  );
}

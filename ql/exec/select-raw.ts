/**
 * Raw (non-aggregate) SELECT for one output series: every series of the group is read as
 * rows (its fields joined by time), the group's series are merged by time, rows pass the
 * WHERE row filter, and each column is evaluated. Like 1.x, a row is emitted when at least one
 * field the columns read has a value there, even if the column expressions come out null
 * (`usage * 2 + n` where only usage exists); the WHERE clause's own fields do not count. Raw
 * transforms (derivative(x), ...) keep state across the rows of the output series.
 */
import type { SymbolStreams } from './integral-cursor.js';
import type { Expr } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';
import type { Cell } from '../result.js';
import { TRANSFORMS } from '../plan/functions.js';
import { callsIn, isTag } from '../plan/projection.js';
import { conditionTagValue, isConditionTag } from '../plan/condition.js';
import { callKey, evaluate, type EvalTypes, type RowScope } from './eval.js';
import type { Row } from './row-reader.js';
import type { Scalar } from './value.js';
import { openSeriesRows, plainReference, type RowSource } from './series-rows.js';
import { fieldFill } from './call-fill.js';
import { mergeSpans, type TimeSpan } from './shard-spans.js';
import { rawMergeHeap } from './raw-merge-heap.js';
import { UnionSource } from './union-source.js';
import { checkpoint, type QueryContext } from './context.js';
import type { SelectPlan } from './select-plan.js';
import { isIntegerType } from './select-plan.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import type { EdgePoint } from './tag-set-edge-heap.js';
import { checkTransformInput, createTransform, type Transform, type TransformArgs, type TransformName } from './transform.js';
import { TECHNICAL, type TechnicalArgs } from './technical.js';
import { FieldType } from '../../engine/index.js';

export interface GroupRun {
  readonly plan: SelectPlan;
  readonly source: MeasurementSource;
  readonly series: readonly SeriesRef[];
  readonly rowFilter: Expr | null;
  readonly ctx: QueryContext;
  /** Set by an integral()-only group: its last row is the stream's Close row (integral-series-order.ts). */
  readonly integralEnd?: { endsWithClose: boolean };
  /** Set where integral() is beside other calls: the group hands over each symbol's rows instead of its own (integral-cursor.ts). */
  readonly symbolStreams?: SymbolStreams;
  /**
   * Per aggregate call: fill its empty windows even where this run reads no point for it, as
   * the group has points for it elsewhere in the statement's range (a slice of it:
   * subquery-slices.ts). Without it, a call without any point has no row to fill.
   */
  readonly fillsUnseen?: readonly boolean[];
  /** first()/last() alone: the points 1.x's tag set heap leaves this group (tag-set-edge-heap.ts), read instead of its series. */
  readonly edgePoints?: readonly EdgePoint[];
}

export function fieldRefs(exprs: readonly (Expr | null)[], plan: SelectPlan): string[] {
  const out = new Set<string>();
  const walk = (e: Expr | null) => {
    if (!e) return;
    if (e.kind === 'VarRef') {
      if (e.name.toLowerCase() === 'time' && e.type === null) return;
      if (!isTag(e.name, e.type, plan.schema)) out.add(e.name);
    } else if (e.kind === 'Binary') {
      walk(e.lhs);
      walk(e.rhs);
    } else if (e.kind === 'Unary') walk(e.expr);
    else if (e.kind === 'Call') e.args.forEach(walk);
  };
  exprs.forEach(walk);
  return [...out];
}

interface SeriesRows {
  readonly ref: SeriesRef;
  readonly reader: RowSource;
  row: Row | null;
  /** Per column: the series' value of a plain tag column (the same on every row), else null. */
  readonly tagCells: readonly Cell[];
}

export function evalTypes(source: MeasurementSource, extra?: ReadonlyMap<string, boolean>): EvalTypes {
  const types = source.fieldTypes();
  return { isInteger: (name) => extra?.get(name) ?? isIntegerType(types.get(name)) };
}

/**
 * What every group of a raw SELECT over one source shares: the fields read and their slots,
 * the plain columns, the LIMIT in effect. Worked out once per source, not per group
 * (lastpoint has a group per host, and this cost as much as a group's reads).
 */
export interface RawLayout {
  readonly fields: readonly string[];
  readonly fieldIndex: ReadonlyMap<string, number>;
  /** Slots of the fields the columns read (a row is emitted when one of them has a value). */
  readonly selected: readonly number[];
  readonly types: EvalTypes;
  /** The subset of `fields` the row filter reads. */
  readonly condFields: readonly string[];
  readonly plain: readonly (ReturnType<typeof plainReference>)[];
  /** Field slots of plain columns (-1: not a plain field column), read per row without the interpreter. */
  readonly slots: readonly number[];
  readonly allPlain: boolean;
  readonly limit: number;
  /** A column reads one of the subquery's own GROUP BY tags: every inner row is a row (MeasurementSource.groupTags). */
  readonly everyRow: boolean;
}

export function rawLayout(plan: SelectPlan, source: MeasurementSource, rowFilter: Expr | null): RawLayout {
  const columns = plan.projection.columns;
  const fields = fieldRefs([...columns.map((c) => c.expr), rowFilter], plan).filter((f) => source.fieldTypes().has(f));
  const fieldIndex = new Map(fields.map((f, i) => [f, i]));
  const selected = fieldRefs(columns.map((c) => c.expr), plan).flatMap((f) => (fieldIndex.has(f) ? [fieldIndex.get(f)!] : []));
  // The row-cursor slot (series-rows.ts): a subquery row that exists with every field null.
  // Not when no selected column names one of its fields or its own GROUP BY tags: 1.x then has
  // nothing to read. Such a tag has a value on every inner row, so each row is one then.
  const groupTags = source.groupTags?.();
  const everyRow = groupTags !== undefined && groupTags.size > 0 && columns.some((c) => readsTag(c.expr, groupTags, plan));
  if (source.rowCursor && (selected.length > 0 || everyRow)) selected.push(fields.length);
  checkTransformInputs(columns.map((c) => c.expr), source.fieldTypes());
  const plain = columns.map((c) => plainReference(c.expr, plan.schema, fieldIndex));
  // 1.6.7 answers a raw OFFSET without LIMIT from storage with the one row at that offset (not
  // so with a transform such as derivative(x), from a subquery or several sources: all rows after it).
  const hasTransform = columns.some((c) => callsIn(c.expr).some((k) => TRANSFORMS.has(k.name.toLowerCase())));
  return {
    fields,
    fieldIndex,
    selected,
    types: evalTypes(source),
    condFields: fieldRefs([rowFilter], plan).filter((f) => fieldIndex.has(f)),
    plain,
    slots: plain.map((p) => (p && 'slot' in p ? p.slot : -1)),
    allPlain: plain.every((p) => p !== undefined),
    limit: plan.stmt.limit === 0 && plan.stmt.offset > 0 && !hasTransform && !source.fromSubquery && !(source instanceof UnionSource) ? 1 : plan.stmt.limit,
    everyRow,
  };
}

/** Whether `e` reads one of `tags` as a tag. */
function readsTag(e: Expr, tags: ReadonlySet<string>, plan: SelectPlan): boolean {
  let found = false;
  walkExpr(e, (x) => void (x.kind === 'VarRef' && tags.has(x.name) && isTag(x.name, x.type, plan.schema) && (found = true)));
  return found;
}

/**
 * Rows of one output series. With `emit`, rows are handed over in pieces of `chunkSize` as
 * they are produced (memory bounded by one piece) and the return value holds the remainder.
 * `layout`: rawLayout of the group's plan, source and row filter (made here when not given).
 */
export async function runRawGroup(
  g: GroupRun,
  emit?: (rows: Cell[][]) => Promise<void>,
  chunkSize = 10_000,
  layout: RawLayout = rawLayout(g.plan, g.source, g.rowFilter),
): Promise<Cell[][]> {
  const { plan, ctx } = g;
  const columns = plan.projection.columns;
  const { fields, fieldIndex, selected, types, condFields, plain, slots, allPlain, limit, everyRow } = layout;
  const transforms = new Map<string, Transform>();
  const fillInput = fieldFill(plan);
  const openAll = (span: TimeSpan | undefined): SeriesRows[] =>
    g.series.map((ref) => ({
      ref,
      reader: openSeriesRows(g, ref, fields, condFields, types, span, everyRow),
      row: null,
      tagCells: plain.map((p) => (p && 'tag' in p ? (ref.tags[p.tag] ?? null) : null)),
    }));
  let open: SeriesRows[] = [];
  let out: Cell[][] = [];
  let emitted = 0;
  let skip = plan.stmt.offset;
  try {
    let n = 0;
    // The WHERE is applied per series before the merge, as 1.x's cursors do: rows it drops
    // never enter the merge heap (which decides the order of rows sharing a timestamp). Nor do
    // rows holding only fields the WHERE reads: 1.x's cursors are driven by the selected fields.
    const passes = (s: SeriesRows, row: Row, checked: boolean): boolean => {
      if (!hasSelectedValue(row.values, selected)) return false;
      if (checked || !g.rowFilter) return true;
      const scope: RowScope = {
        time: row.time,
        lookup: (name, hint) => (isConditionTag(name, hint, plan.schema) ? conditionTagValue(s.ref.tags, name) : (row.values[fieldIndex.get(name) ?? -1] ?? null)),
        condition: true,
      };
      return evaluate(g.rowFilter, scope, types) === true;
    };
    const advanceAsync = async (s: SeriesRows): Promise<void> => {
      const checked = s.reader.appliesWhere === true;
      for (s.row = await s.reader.next(); s.row && !passes(s, s.row, checked); s.row = await s.reader.next()) {
        if (++n % 1024 === 0) await checkpoint(ctx);
      }
    };
    // The series' next passing row; a promise only when its reader has to wait for a batch.
    const advance = (s: SeriesRows): Promise<void> | undefined => {
      const checked = s.reader.appliesWhere === true;
      for (;;) {
        const row = s.reader.nextNow?.();
        if (row === undefined) return advanceAsync(s);
        s.row = row;
        if (!row || passes(s, row, checked)) return undefined;
        if (++n % 1024 === 0) return Promise.resolve(checkpoint(ctx)).then(() => advanceAsync(s));
      }
    };
    // 1.x merges the series shard by shard (shard-spans.ts); shards never share a timestamp.
    spans: for (const span of mergeSpans(g)) {
      for (const s of open) s.reader.close();
      open = openAll(span);
      for (const s of open) await advance(s);
      // 1.x's sorted merge: a Go heap over the series in key order (raw-merge-heap.ts).
      const heap = rawMergeHeap(g.source, g.series, open.filter((s) => s.row), plan, fieldIndex);
      for (;;) {
        const best = heap.pop();
        if (!best) break;
        const row = best.row!;
        const tags = best.ref.tags;
        const tagCells = best.tagCells;
        if (++n % 1024 === 0) await checkpoint(ctx);
        // 1.x joins the transforms' outputs by time: a row needs a value from one of them.
        let transformsAsked = false;
        let transformsAnswered = false;
        const cells = new Array<Cell>(columns.length + 1);
        cells[0] = row.time;
        if (allPlain) {
          // Plain field and tag columns only (SELECT *): no interpreter, no closures per row.
          for (let i = 0; i < columns.length; i++) {
            const slot = slots[i]!;
            cells[i + 1] = slot >= 0 ? (row.values[slot] ?? null) : tagCells[i]!;
          }
        } else {
          let scope: RowScope | undefined;
          let bare: RowScope | undefined;
          const valueOf = (name: string, hint: string | null): Scalar => {
            if (isTag(name, hint, plan.schema)) return tags[name] ?? null;
            const i = fieldIndex.get(name);
            return i === undefined ? null : (row.values[i] ?? null);
          };
          // A transform reads its field's own rows only: no fill(N) default in its input.
          const unfilled = (): RowScope => (bare ??= { ...scoped(), lookup: valueOf });
          // Built only for rows that need the interpreter (a WHERE, or a column that is not a plain reference).
          const scoped = (): RowScope => (scope ??= {
            time: row.time,
            lookup: (name, hint) => {
              const v = valueOf(name, hint);
              return v === null && fillInput ? fillInput(name, hint) : v;
            },
            call: (e) => {
              if (e.kind !== 'Call' || !TRANSFORMS.has(e.name.toLowerCase())) return undefined;
              const key = callKey(e);
              let t = transforms.get(key);
              const inner = e.args[0];
              if (!inner) return null;
              if (!t) {
                t = createTransform(e.name.toLowerCase() as TransformName, inferType(inner, types), transformArgs(e, plan.ascending));
                transforms.set(key, t);
              }
              const v = evaluate(inner, unfilled(), types);
              const r = v === null ? null : t.push(row.time, v);
              transformsAsked = true;
              if (r) transformsAnswered = true;
              return r ? r.value : null;
            },
          });
          for (let i = 0; i < columns.length; i++) {
            const slot = slots[i]!;
            cells[i + 1] = slot >= 0 ? (row.values[slot] ?? null) : plain[i] ? tagCells[i]! : evaluate(columns[i]!.expr, scoped(), types);
          }
        }
        if ((transformsAnswered || !transformsAsked) && hasSelectedValue(row.values, selected)) {
          if (skip > 0) skip--;
          else {
            out.push(cells);
            // Before the series' next row is read: a LIMIT query reads no row past its last
            // (ORDER BY time DESC LIMIT 1 then never decodes a stored block's timestamps).
            if (limit > 0 && emitted + out.length >= limit) break spans;
            if (emit && out.length >= chunkSize) {
              emitted += out.length;
              const piece = out;
              out = [];
              await emit(piece);
            }
          }
        }
        const waiting = advance(best);
        if (waiting) await waiting;
        if (best.row) heap.push(best);
      }
    }
  } finally {
    for (const s of open) s.reader.close();
  }
  return out;
}

/** Whether the row has a value in at least one of the fields the columns read (1.x emits only such rows). */
function hasSelectedValue(values: readonly Scalar[], selected: readonly number[]): boolean {
  for (const i of selected) if (values[i] !== null && values[i] !== undefined) return true;
  return false;
}

/** 1.x refuses a transform of a string or boolean field when it builds the iterator, data or not. */
function checkTransformInputs(exprs: readonly Expr[], fieldTypes: ReadonlyMap<string, FieldType>): void {
  for (const call of exprs.flatMap((e) => callsIn(e))) {
    const name = call.name.toLowerCase();
    const inner = call.args[0];
    if (!TRANSFORMS.has(name) || inner?.kind !== 'VarRef') continue;
    const type = fieldTypes.get(inner.name);
    if (type !== undefined) checkTransformInput(name as TransformName, type);
  }
}

export function inferType(e: Expr, types: EvalTypes): FieldType {
  if (e.kind === 'VarRef') return types.isInteger(e.name) ? FieldType.Integer : FieldType.Float;
  return FieldType.Float;
}

/** Transform arguments from the call: unit for derivative/elapsed, N for moving_average. */
export function transformArgs(e: Expr, ascending: boolean, groupInterval?: bigint): TransformArgs {
  if (e.kind !== 'Call') return { descending: !ascending };
  const name = e.name.toLowerCase();
  const second = e.args[1];
  const out: { unitNs?: bigint; n?: number; descending: boolean; technical?: TechnicalArgs } = { descending: !ascending };
  if (TECHNICAL.has(name)) {
    const [, period, hold, warmup] = e.args;
    out.technical = {
      period: period?.kind === 'Integer' ? Number(period.value) : 1,
      hold: hold?.kind === 'Integer' ? Number(hold.value) : -1,
      ...(warmup?.kind === 'String' && { warmup: warmup.value }),
    };
  }
  if (name === 'moving_average' && second && (second.kind === 'Integer' || second.kind === 'Number')) out.n = Number(second.kind === 'Integer' ? second.value : second.value);
  if (second && second.kind === 'Duration') out.unitNs = second.ns;
  else if ((name === 'derivative' || name === 'non_negative_derivative') && groupInterval !== undefined) out.unitNs = groupInterval;
  return out;
}

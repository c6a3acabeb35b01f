/**
 * The executor's series flattened into SQL rows: one row per series row, tag columns from the
 * series tags (GROUP BY), then the ORDER BY / LIMIT / OFFSET that could not be pushed into the
 * TimeseriesQL statement.
 */
import type { Cell, StatementResult } from '../result.js';
import { QueryError } from '../errors.js';
import type { SqlPlan } from './plan.js';

export interface SqlRows {
  readonly columns: readonly string[];
  /** Time cells are bigint ns; `timeColumns` says which columns hold them. */
  readonly rows: readonly (readonly Cell[])[];
  readonly timeColumns: readonly number[];
}

function rank(c: Cell): number {
  switch (typeof c) {
    case 'boolean':
      return 1;
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    default:
      return 4; // NULL sorts last ascending (PostgreSQL)
  }
}

export function compareCells(a: Cell, b: Cell): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (a === null || b === null) return 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  // number / bigint / boolean: mixed number-bigint comparisons are exact in JS.
  return a < b ? -1 : a > b ? 1 : 0;
}

export function shapeRows(plan: SqlPlan, result: StatementResult | undefined): SqlRows {
  if (result?.error) throw new QueryError(result.error, 400, 'sql_query_error');
  const cols = plan.columns;
  let rows: Cell[][] = [];
  for (const s of result?.series ?? []) {
    const index = new Map(s.columns.map((c, i) => [c, i]));
    const timeAt = s.columns[0] === 'time' ? 0 : -1;
    const picks = cols.map((c) => {
      if (c.source.kind === 'time') return timeAt;
      if (c.source.kind === 'cell') return index.get(c.source.column) ?? -1;
      return -1;
    });
    for (const v of s.values) {
      rows.push(
        cols.map((c, i): Cell => {
          if (c.source.kind === 'tag') {
            const t = s.tags?.[c.source.key];
            return t === undefined || t === '' ? null : t;
          }
          const at = picks[i]!;
          return at < 0 ? null : (v[at] ?? null);
        }),
      );
    }
  }
  if (rows.length === 0 && plan.emptyRow) rows.push([...plan.emptyRow]);
  if (plan.sort.length > 0) {
    rows.sort((a, b) => {
      for (const k of plan.sort) {
        const cmp = compareCells(a[k.index] ?? null, b[k.index] ?? null);
        if (cmp !== 0) return k.ascending ? cmp : -cmp;
      }
      return 0;
    });
  }
  if (plan.offset > 0 || plan.limit > 0) rows = rows.slice(plan.offset, plan.limit > 0 ? plan.offset + plan.limit : undefined);
  const visible = cols.map((c, i) => (c.hidden ? -1 : i)).filter((i) => i >= 0);
  const out = visible.length === cols.length ? rows : rows.map((r) => visible.map((i) => r[i] ?? null));
  const timeColumns = visible.flatMap((ci, i) => (cols[ci]!.source.kind === 'time' ? [i] : []));
  return { columns: visible.map((i) => cols[i]!.name), rows: out, timeColumns };
}

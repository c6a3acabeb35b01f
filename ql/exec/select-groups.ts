/**
 * The groups a SELECT answers per source (its tag sets, paged by SLIMIT/SOFFSET, in output
 * order) and the columns of the series it answers. Shared by executeSelect and by a streamed
 * subquery (subquery-stream.ts), which runs the same groups one at a time.
 */
import type { SelectStatement } from '../ast/nodes.js';
import { columnType } from '../plan/column-types.js';
import { isTag } from '../plan/projection.js';
import type { FieldType } from '../../engine/index.js';
import type { Cell, ResultSeries } from '../result.js';
import type { QueryContext } from './context.js';
import { EngineSource } from './engine-source.js';
import { conditionOf } from './plan-derived.js';
import { dimensionTags, type SelectPlan } from './select-plan.js';
import { pagedPerShard } from './shard-tag-sets.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import { pageTagSets } from './tag-set-page.js';

export interface SelectGroup {
  /** The GROUP BY tags' values (undefined without GROUP BY tags). */
  readonly tags: Readonly<Record<string, string>> | undefined;
  readonly series: SeriesRef[];
}

interface TagSet {
  readonly key: string[];
  readonly series: SeriesRef[];
}

function groupSeries(series: readonly SeriesRef[], dims: readonly string[]): TagSet[] {
  const groups = new Map<string, TagSet>();
  for (const s of series) {
    const key = dims.map((d) => s.tags[d] ?? '');
    const k = key.join('\u0000');
    let g = groups.get(k);
    if (!g) {
      g = { key, series: [] };
      groups.set(k, g);
    }
    g.series.push(s);
  }
  return [...groups.values()].sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      if (a.key[i]! < b.key[i]!) return -1;
      if (a.key[i]! > b.key[i]!) return 1;
    }
    return 0;
  });
}

/**
 * The groups of `source` in output order. 1.x pages the tag sets of each measurement
 * (tag-set-page.ts), also under ORDER BY time DESC in ascending order, counting tag sets
 * without a point in the range (they answer nothing); stored data page by page per shard
 * (shard-tag-sets.ts).
 */
export async function groupsOf(stmt: SelectStatement, plan: SelectPlan, source: MeasurementSource, ctx: QueryContext): Promise<SelectGroup[]> {
  const split = conditionOf(plan);
  const dims = dimensionTags(plan.dims, plan.schema.tags);
  const tagSets = groupSeries(source.series(split.tags), dims);
  const paged = (stmt.slimit > 0 || stmt.soffset > 0) && source instanceof EngineSource;
  const groups = paged ? await pagedPerShard(ctx, source, tagSets, dims, stmt.slimit, stmt.soffset, plan.time.min, plan.time.max) : pageTagSets(tagSets, dims, stmt.slimit, stmt.soffset);
  if (!plan.ascending) groups.reverse();
  return groups.map((g) => ({ tags: dims.length ? Object.fromEntries(dims.map((d, i) => [d, g.key[i]!])) : undefined, series: g.series }));
}

/** What every series a SELECT answers carries besides its name, tags and rows. */
export interface SeriesShape {
  readonly columns: string[];
  readonly timeColumn: true | undefined;
  readonly tagColumns: string[] | undefined;
  readonly columnTypes: (FieldType | undefined)[] | undefined;
  readonly fieldNames: string[] | undefined;
  readonly unlistedColumns: string[] | undefined;
}

/** top()/bottom()'s tag columns, by the names a subquery offers them under, unless another column offers the name too. */
function unlistedOf(plan: SelectPlan): string[] | undefined {
  const cols = plan.projection.columns;
  const out = cols.filter((c) => c.selectorTag && !cols.some((o) => !o.selectorTag && o.fieldName === c.fieldName)).map((c) => c.fieldName);
  return out.length > 0 ? out : undefined;
}

function tagColumnsOf(plan: SelectPlan): string[] | undefined {
  const out = plan.projection.columns.filter((c) => c.expr.kind === 'VarRef' && isTag(c.expr.name, c.expr.type, plan.schema)).map((c) => c.name);
  return out.length > 0 ? out : undefined;
}

export function seriesShape(stmt: SelectStatement, plan: SelectPlan, nested: boolean): SeriesShape {
  return {
    columns: [plan.projection.timeName, ...plan.projection.columns.map((c) => c.name)],
    timeColumn: plan.projection.timeName !== 'time' || undefined,
    tagColumns: tagColumnsOf(plan),
    // Writes (INTO) and outer queries (a subquery's columns) need the types cells cannot show.
    columnTypes: stmt.target || nested ? [undefined, ...plan.projection.columns.map((c) => columnType(c.expr, plan.schema))] : undefined,
    fieldNames: nested ? [plan.projection.timeName, ...plan.projection.columns.map((c) => c.fieldName)] : undefined,
    unlistedColumns: nested ? unlistedOf(plan) : undefined,
  };
}

/** One answered series of a SELECT. */
export function resultSeries(name: string, tags: Readonly<Record<string, string>> | undefined, shape: SeriesShape, values: Cell[][]): ResultSeries {
  const { columns, timeColumn, tagColumns, columnTypes, fieldNames, unlistedColumns } = shape;
  return { name, tags, columns, timeColumn, tagColumns, values, ...(columnTypes && { columnTypes }), ...(fieldNames && { fieldNames }), ...(unlistedColumns && { unlistedColumns }) };
}

/**
 * EXPLAIN's plan: the statement compiled as SELECT compiles it (same errors), its storage reads
 * (nodes.ts) per source, and what each read would cost, counted from the series index, the
 * caches and the TSM indexes without reading data (1.x's IteratorCost).
 *
 * 1.x counts per shard of the time range that has the measurement: a shard, every series the
 * tag condition selects (the index is the database's, so each shard counts all of them), and per
 * series the values and blocks of the read's field, its auxiliary fields and the fields its
 * reduced row condition reads.
 */
import { addCost, selectSeries, type Shard } from '../../../engine/index.js';
import type { Measurement, SelectStatement, Source } from '../../ast/nodes.js';
import type { QueryContext } from '../context.js';
import { measurementNames, measurementTarget } from '../measurement-target.js';
import { conditionOf } from '../plan-derived.js';
import { compileSelectOnly } from '../select.js';
import type { CompiledSelect } from '../plan-memo.js';
import { innerStatement, subqueryRange } from '../subquery-statement.js';
import { conditionFields, nodeReads, type NodeReads } from './nodes.js';
import { reduceForSeries } from './series-filter.js';

export interface PlanCost {
  shards: number;
  series: number;
  cachedValues: number;
  files: number;
  blocks: number;
  blockBytes: number;
}

/** One storage read of one source: what 1.x's EXPLAIN prints a paragraph for. */
export interface PlanNode {
  readonly reads: NodeReads;
  /** The source's measurement, or its regex as written. */
  readonly measurement: string;
  readonly cost: PlanCost;
  /** The cost per shard that has the measurement, with the cursors the read opens there (EXPLAIN ANALYZE). */
  readonly perShard: readonly ShardRead[];
}

export interface ShardRead {
  readonly shard: Shard;
  readonly measurement: string;
  readonly cost: PlanCost;
  readonly cursors: { ref: number; aux: number; cond: number };
}

const zeroCost = (): PlanCost => ({ shards: 0, series: 0, cachedValues: 0, files: 0, blocks: 0, blockBytes: 0 });

function addPlanCost(into: PlanCost, c: PlanCost): void {
  into.shards += c.shards;
  into.series += c.series;
  addCost(into, c);
}

/** One compile per statement object for the whole EXPLAIN (a subquery's prepare can run its inner statements). */
export type Compile = (stmt: SelectStatement) => Promise<CompiledSelect | null>;

export function compileOnce(ctx: QueryContext): Compile {
  const seen = new Map<SelectStatement, Promise<CompiledSelect | null>>();
  return (stmt) => {
    let p = seen.get(stmt);
    if (!p) seen.set(stmt, (p = compileSelectOnly(stmt, ctx)));
    return p;
  };
}

/** A series the statement selects, with the fields its reduced row condition reads. */
interface SelectedSeries {
  readonly key: string;
  readonly cond: readonly string[];
}

/** What a measurement source reads, worked out once for all the statement's reads. */
interface SourceReads {
  readonly label: string;
  readonly shards: readonly Shard[];
  readonly measurements: readonly { readonly name: string; readonly series: readonly SelectedSeries[] }[];
}

function sourceReads(src: Measurement, plan: CompiledSelect['plan'], ctx: QueryContext): SourceReads {
  const { db, rp } = measurementTarget(src, ctx);
  const { tags, rows } = conditionOf(plan);
  const index = ctx.engine.openedDatabase(db)?.index;
  const measurements: SourceReads['measurements'][number][] = [];
  for (const name of measurementNames(src, db, ctx)) {
    const m = index?.measurement(name);
    if (!m) continue;
    const series = [...selectSeries(m, tags)].flatMap((id) => {
      const s = index!.seriesById(id);
      if (!s) return [];
      const tagsOf: Record<string, string> = {};
      for (const t of s.tags) tagsOf[t.key] = t.value;
      const filter = rows ? reduceForSeries(rows, tagsOf, plan.schema) : null;
      return [{ key: s.key, cond: typeof filter === 'boolean' || filter === null ? [] : conditionFields(filter, plan.schema) }];
    });
    measurements.push({ name, series });
  }
  return { label: src.regex ? `/${src.regex.source}/` : src.name, shards: ctx.engine.shardsOverlapping(db, rp, plan.time.min, plan.time.max), measurements };
}

function shardRead(reads: NodeReads, shard: Shard, series: readonly SelectedSeries[], plan: CompiledSelect['plan'], ctx: QueryContext): { cost: PlanCost; cursors: ShardRead['cursors'] } {
  const cost: PlanCost = { ...zeroCost(), shards: 1, series: series.length };
  const cursors = { ref: 0, aux: 0, cond: 0 };
  for (const s of series) {
    // A cursor per series-field with data in this shard (1.x opens them for the shard's own series).
    const read = (f: string, kind: keyof typeof cursors) => {
      const c = ctx.engine.readCost(shard, s.key, f, plan.time.min, plan.time.max);
      addCost(cost, c);
      if (c.cachedValues + c.blocks > 0) cursors[kind]++;
    };
    if (reads.field !== undefined) read(reads.field, 'ref');
    for (const f of reads.auxFields) read(f, 'aux');
    for (const f of s.cond) read(f, 'cond');
  }
  return { cost, cursors };
}

/** The nodes of `stmt` in 1.x's order: a subquery's own first, then per read, per source. */
export async function planNodes(stmt: SelectStatement, ctx: QueryContext, compile: Compile = compileOnce(ctx)): Promise<PlanNode[]> {
  const compiled = await compile(stmt);
  if (!compiled) return [];
  const { plan } = compiled;
  const out: PlanNode[] = [];
  for (const src of stmt.sources as readonly Source[]) {
    if (src.kind !== 'SubQuery') continue;
    const innerCtx: QueryContext = ctx.outermostRange ? ctx : { ...ctx, outermostRange: subqueryRange(stmt, ctx) };
    out.push(...(await planNodes(innerStatement(stmt, src.statement, innerCtx), innerCtx, compileOnce(innerCtx))));
  }
  const sources = (stmt.sources as readonly Source[]).filter((s): s is Measurement => s.kind === 'Measurement').map((src) => sourceReads(src, plan, ctx));
  for (const reads of nodeReads(plan.projection, plan.schema)) {
    for (const src of sources) {
      const node: PlanNode = { reads, measurement: src.label, cost: zeroCost(), perShard: [] };
      for (const { name, series } of src.measurements) {
        for (const shard of src.shards) {
          const { cost, cursors } = shardRead(reads, shard, series, plan, ctx);
          addPlanCost(node.cost, cost);
          (node.perShard as ShardRead[]).push({ shard, measurement: name, cost, cursors });
        }
      }
      out.push(node);
    }
  }
  return out;
}

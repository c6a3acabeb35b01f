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
import { innerStatement, statementTime } from '../subquery-statement.js';
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

/** The nodes of `stmt` in 1.x's order: a subquery's own first, then per read, per source. */
export async function planNodes(stmt: SelectStatement, ctx: QueryContext): Promise<PlanNode[]> {
  const compiled = await compileSelectOnly(stmt, ctx);
  if (!compiled) return [];
  const { plan } = compiled;
  const out: PlanNode[] = [];
  for (const src of stmt.sources as readonly Source[]) {
    if (src.kind !== 'SubQuery') continue;
    const innerCtx: QueryContext = ctx.outermostRange ? ctx : { ...ctx, outermostRange: statementTime(stmt, ctx) };
    out.push(...(await planNodes(innerStatement(stmt, src.statement, innerCtx), innerCtx)));
  }
  const measurements = (stmt.sources as readonly Source[]).filter((s): s is Measurement => s.kind === 'Measurement');
  const { tags, rows } = conditionOf(plan);
  for (const reads of nodeReads(plan.projection, plan.schema)) {
    for (const src of measurements) {
      const { db, rp } = measurementTarget(src, ctx);
      const node: PlanNode = { reads, measurement: src.regex ? `/${src.regex.source}/` : src.name, cost: zeroCost(), perShard: [] };
      const shards = ctx.engine.shardsOverlapping(db, rp, plan.time.min, plan.time.max);
      const index = ctx.engine.openedDatabase(db)?.index;
      for (const name of measurementNames(src, db, ctx)) {
        const m = index?.measurement(name);
        if (!m) continue;
        const series = [...selectSeries(m, tags)].flatMap((id) => index!.seriesById(id) ?? []);
        for (const shard of shards) {
          const cost: PlanCost = { ...zeroCost(), shards: 1, series: series.length };
          const cursors = { ref: 0, aux: 0, cond: 0 };
          for (const s of series) {
            const tagsOf: Record<string, string> = {};
            for (const t of s.tags) tagsOf[t.key] = t.value;
            const filter = rows ? reduceForSeries(rows, tagsOf, plan.schema) : null;
            const cond = typeof filter === 'boolean' || filter === null ? [] : conditionFields(filter, plan.schema);
            // A cursor per series-field with data in this shard (1.x opens them for the shard's own series).
            const read = (f: string, kind: keyof typeof cursors) => {
              const c = ctx.engine.readCost(shard, s.key, f, plan.time.min, plan.time.max);
              addCost(cost, c);
              if (c.cachedValues + c.blocks > 0) cursors[kind]++;
            };
            if (reads.field !== undefined) read(reads.field, 'ref');
            for (const f of reads.auxFields) read(f, 'aux');
            for (const f of cond) read(f, 'cond');
          }
          addPlanCost(node.cost, cost);
          (node.perShard as ShardRead[]).push({ shard, measurement: name, cost, cursors });
        }
      }
      out.push(node);
    }
  }
  return out;
}

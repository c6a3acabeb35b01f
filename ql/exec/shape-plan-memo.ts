/**
 * Compiled SELECT plans kept per statement shape, for statements the exact plan memo
 * (plan-memo.ts) has not seen. TSBS and dashboards send one statement with a new time window
 * (and host) on every request; the parser's shape cache (ql/parser/shape-cache.ts) rebinds the
 * literals into a copy of one parse, and the copy shares every part without a changed literal
 * with it, field list included. When two statements share their field list and every other part
 * but the WHERE condition, their compiles differ only where the condition is read, so the new
 * one reuses the sources, window, dimensions, schema and projection and only checks its
 * condition and splits its time range again (select-plan.ts withCondition).
 *
 * The sources depend on the condition in two places: a retention policy whose shards do not meet
 * the time range contributes no measurement, and a measurement whose shards hold different
 * fields has the fields of the shards the range meets (select.ts resolveSources). The compile records each
 * such question with its answer; a statement whose range answers any of them otherwise is
 * compiled afresh. Everything else the sources depend on (databases, retention policies,
 * measurements, field types, tag keys, shards) moves the engine's schemaVersion, checked as the
 * exact memo checks it, with the same defaults (database, retention policy) and engine. A
 * condition that fails to compile falls back to the full compile, which throws its error.
 */
import type { Field, SelectStatement } from '../ast/nodes.js';
import type { QueryContext } from './context.js';
import { inheritAggregates } from './plan-derived.js';
import type { CompiledSelect } from './plan-memo.js';
import { withCondition } from './select-plan.js';

/**
 * One `hasShardOverlapping(db, rp, range)` a compile asked while resolving its sources, or (with
 * `measurement`) the fields its shards hold for a measurement whose shards do not all hold the
 * same (engine.fieldsInRange: a `*` lists those).
 */
export interface ShardQuestion {
  readonly db: string;
  readonly rp: string;
  readonly answer: boolean;
  readonly measurement?: string;
  readonly fields?: ReadonlySet<string>;
}

function sameFields(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const f of a) if (!b.has(f)) return false;
  return true;
}

function stillAnswers(q: ShardQuestion, ctx: QueryContext, min: bigint, max: bigint): boolean {
  if (q.measurement === undefined) return ctx.engine.hasShardOverlapping(q.db, q.rp, min, max) === q.answer;
  return sameFields(ctx.engine.fieldsInRange(q.db, q.rp, q.measurement, min, max), q.fields);
}

interface Entry extends CompiledSelect {
  readonly engine: QueryContext['engine'];
  readonly version: number;
  readonly database: string;
  readonly retentionPolicy: string;
  readonly asked: readonly ShardQuestion[];
}

/** By field list: an immutable AST array that rebound statements of one shape share. */
const byFields = new WeakMap<readonly Field[], Entry>();

let hits = 0;

/** Plans made from a kept shape (tests check that they exercise it). */
export function shapePlanHits(): number {
  return hits;
}

/** Whether `a` and `b` hold the same parts (by identity) apart from their conditions. */
function sameButCondition(a: SelectStatement, b: SelectStatement): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const k in ra) if (k !== 'condition' && ra[k] !== rb[k]) return false;
  for (const k in rb) if (!(k in ra)) return false;
  return true;
}

/** Keep a fresh compile of `stmt` (one the exact memo keeps) for statements of its shape. */
export function keepShape(stmt: SelectStatement, ctx: QueryContext, version: number, compiled: CompiledSelect, asked: readonly ShardQuestion[]): void {
  const { engine, database, retentionPolicy } = ctx;
  byFields.set(stmt.fields, { ...compiled, engine, version, database, retentionPolicy, asked });
}

/** `stmt`'s compile from a kept statement of its shape, or undefined when it must be compiled. */
export function fromShape(stmt: SelectStatement, ctx: QueryContext, version: number): CompiledSelect | undefined {
  const e = byFields.get(stmt.fields);
  if (e === undefined || e.version !== version || e.engine !== ctx.engine || e.database !== ctx.database || e.retentionPolicy !== ctx.retentionPolicy) return undefined;
  if (!sameButCondition(e.plan.stmt, stmt)) return undefined;
  let plan;
  try {
    plan = withCondition(e.plan, stmt, ctx.nowNs);
  } catch {
    return undefined;
  }
  for (const q of e.asked) if (!stillAnswers(q, ctx, plan.time.min, plan.time.max)) return undefined;
  inheritAggregates(e.plan, plan);
  hits++;
  return { sources: e.sources, plan };
}

/**
 * Compiled SELECT plans kept per statement AST. Statements from the parse cache are frozen and
 * shared by every request with the same text, so a repeated query finds its sources (the
 * measurements it reads) and its plan (time range, window, projection, union schema) here
 * instead of compiling them again.
 *
 * A plan depends on the schema (databases, retention policies, measurements, field types, tag
 * keys, shards: the engine's `schemaVersion` moves when any of them changes), on the request's
 * default database and retention policy, and on now() when the statement reads it. Entries are
 * used only for the same engine, version and defaults; statements that read now() (in WHERE, in
 * a GROUP BY time offset, or as the implicit upper bound of GROUP BY time) and statements with
 * subqueries are never kept. A statement missing here may be rebound from a kept statement of
 * its shape (shape-plan-memo.ts).
 */
import type { Expr, SelectStatement } from '../ast/nodes.js';
import { someExpr } from '../ast/walk.js';
import type { QueryContext } from './context.js';
import { compileSelect, type SelectPlan } from './select-plan.js';
import type { MeasurementSource } from './source.js';
import { fromShape, keepShape, type ShardQuestion } from './shape-plan-memo.js';

export interface CompiledSelect {
  readonly sources: readonly MeasurementSource[];
  readonly plan: SelectPlan;
}

interface Entry extends CompiledSelect {
  readonly engine: QueryContext['engine'];
  readonly version: number;
  readonly database: string;
  readonly retentionPolicy: string;
}

const plans = new WeakMap<SelectStatement, Entry>();

const isNow = (e: Expr): boolean => e.kind === 'Call' && e.name.toLowerCase() === 'now';

function readsNow(stmt: SelectStatement, plan: SelectPlan): boolean {
  if (plan.window !== undefined && !plan.time.hasMax) return true;
  if (stmt.condition && someExpr(stmt.condition, isNow)) return true;
  return stmt.dimensions.some((d) => someExpr(d, isNow));
}

/**
 * The statement's sources and plan: from the memo when they were compiled against the same
 * schema (returned as is, not in a promise), else `resolve()`d and compiled (and kept when
 * they may be). `nested` plans (a subquery's inner statement, rebuilt per run) are never kept.
 */
export function compiledSelect(
  stmt: SelectStatement,
  ctx: QueryContext,
  nested: boolean,
  resolve: (asked: ShardQuestion[]) => Promise<MeasurementSource[]>,
): CompiledSelect | Promise<CompiledSelect> {
  const { engine, database, retentionPolicy } = ctx;
  const version = engine.schemaVersion;
  const hit = nested ? undefined : plans.get(stmt);
  // A hit answers without a promise: the caller then runs on without a microtask turn.
  if (hit && hit.version === version && hit.engine === engine && hit.database === database && hit.retentionPolicy === retentionPolicy) return hit;
  // A new text of a known shape (a new time window): rebound, also without a promise, and kept,
  // so that a repeat of it gets the same plan object (and the values derived from it:
  // plan-derived.ts) instead of a rebind per request.
  const shaped = nested ? undefined : fromShape(stmt, ctx, version);
  if (shaped === undefined) return compile(stmt, ctx, nested, resolve, version);
  const entry: Entry = { sources: shaped.sources, plan: shaped.plan, engine, version, database, retentionPolicy };
  if (!readsNow(stmt, shaped.plan)) plans.set(stmt, entry);
  return entry;
}

async function compile(stmt: SelectStatement, ctx: QueryContext, nested: boolean, resolve: (asked: ShardQuestion[]) => Promise<MeasurementSource[]>, version: number): Promise<CompiledSelect> {
  const { engine, database, retentionPolicy } = ctx;
  const asked: ShardQuestion[] = [];
  const sources = await resolve(asked);
  const plan: SelectPlan = { ...compileSelect(stmt, sources, ctx.nowNs), nested };
  const keep = !nested && engine.schemaVersion === version && !stmt.sources.some((s) => s.kind === 'SubQuery') && !readsNow(stmt, plan);
  if (keep) {
    plans.set(stmt, { sources, plan, engine, version, database, retentionPolicy });
    keepShape(stmt, ctx, version, { sources, plan }, asked);
  }
  return { sources, plan };
}

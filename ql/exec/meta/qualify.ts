/**
 * Fully qualified SELECT ... INTO for stored definitions (continuous queries, materialized
 * views), as 1.x stores them: every measurement source and the INTO target get the database
 * and its default retention policy when they do not name them
 * (`SELECT mean(v) INTO d.autogen.m_mean FROM d.autogen.m GROUP BY time(10m)`).
 */
import type { Expr, Measurement, SelectStatement, Source, Target } from '../../ast/nodes.js';
import { quoteIdent } from '../../ast/keywords.js';
import type { QueryContext } from '../context.js';

function defaultRp(ctx: QueryContext, db: string): string {
  return ctx.engine.catalog.database(db)?.defaultRp ?? '';
}

function qualifySource(ctx: QueryContext, s: Source, db: string): Source {
  // 1.x qualifies the measurements of a subquery too (`FROM (SELECT v FROM d.autogen.m)`)
  if (s.kind === 'SubQuery') return { ...s, statement: qualifySelect(ctx, s.statement, db) };
  const database = s.database || db;
  const m: Measurement = { ...s, database, retentionPolicy: s.retentionPolicy || defaultRp(ctx, database) };
  return m;
}

function qualifyTarget(ctx: QueryContext, t: Target, db: string): Target {
  const database = t.database || db;
  return { ...t, database, retentionPolicy: t.retentionPolicy || defaultRp(ctx, database) };
}

export function qualifySelect(ctx: QueryContext, s: SelectStatement, db: string): SelectStatement {
  return {
    ...s,
    sources: s.sources.map((src) => qualifySource(ctx, src, db)),
    target: s.target ? qualifyTarget(ctx, s.target, db) : null,
  };
}

/** `db.rp.measurement` of an INTO target (`:MEASUREMENT` for the backreference). */
export function targetText(t: Target): string {
  return [t.database, t.retentionPolicy].filter((p) => p !== '').map(quoteIdent).concat(t.name === null ? ':MEASUREMENT' : quoteIdent(t.name)).join('.');
}

/** The GROUP BY time(...) interval in ns, or null. */
export function groupByInterval(s: SelectStatement): bigint | null {
  for (const d of s.dimensions as readonly Expr[]) {
    if (d.kind === 'Call' && d.name.toLowerCase() === 'time') {
      const arg = d.args[0];
      if (arg?.kind === 'Duration') return arg.ns;
    }
  }
  return null;
}

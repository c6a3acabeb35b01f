/**
 * Fully qualified SELECT ... INTO for stored definitions (continuous queries, materialized
 * views), as 1.x stores them: every measurement source and the INTO target get the database
 * and its default retention policy when they do not name them
 * (`SELECT mean(v) INTO d.autogen.m_mean FROM d.autogen.m GROUP BY time(10m)`).
 */
import type { Expr, Measurement, SelectStatement, Source, Target } from '../../ast/nodes.js';
import { quoteIdent } from '../../ast/keywords.js';
import type { QueryContext } from '../context.js';

/** A database's default retention policy ('' when it has none or does not exist). */
export type DefaultRp = (database: string) => string;

/**
 * 1.x's normalizeMeasurement over a SELECT: every measurement (sources, subqueries, the INTO
 * target) without a database gets `db`, without a policy `rp` if given, else its database's
 * default.
 */
export function qualifySelectWith(s: SelectStatement, db: string, rp: string, defaultRp: DefaultRp): SelectStatement {
  const policy = (database: string, given: string): string => given || rp || defaultRp(database);
  const source = (src: Source): Source => {
    // 1.x qualifies the measurements of a subquery too (`FROM (SELECT v FROM d.autogen.m)`)
    if (src.kind === 'SubQuery') return { ...src, statement: qualifySelectWith(src.statement, db, rp, defaultRp) };
    const database = src.database || db;
    const m: Measurement = { ...src, database, retentionPolicy: policy(database, src.retentionPolicy) };
    return m;
  };
  const target = (t: Target): Target => {
    const database = t.database || db;
    return { ...t, database, retentionPolicy: policy(database, t.retentionPolicy) };
  };
  return { ...s, sources: s.sources.map(source), target: s.target ? target(s.target) : null };
}

export function qualifySelect(ctx: QueryContext, s: SelectStatement, db: string): SelectStatement {
  return qualifySelectWith(s, db, '', (d) => ctx.engine.catalog.database(d)?.defaultRp ?? '');
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

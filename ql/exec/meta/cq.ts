/**
 * CREATE / DROP CONTINUOUS QUERY: definitions in the catalog (the scheduler runs them).
 * Stored `queryText` is the fully qualified SELECT ... INTO (spec: query_text); EVERY and FOR
 * default to the GROUP BY time interval as in 1.x. Re-creating an identical query is a no-op,
 * a different one `continuous query already exists`; DROP of a missing query is a no-op (1.x).
 * SHOW CONTINUOUS QUERIES prints the 1.x CREATE text (cqCreateText).
 */
import { RetentionPolicyNotFoundError, type ContinuousQueryInfo } from '../../../engine/index.js';
import { printStatement } from '../../ast/print-statement.js';
import { printAs1x, printSelect } from '../../ast/print.js';
import type { SelectStatement } from '../../ast/nodes.js';
import type { CreateContinuousQueryStatement, DropContinuousQueryStatement } from '../../ast/statements.js';
import { parseStatement } from '../../parser/query.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { requireDatabase } from './common.js';
import { MetaError } from './errors.js';
import { groupByInterval, qualifySelectWith } from './qualify.js';

const NS_PER_SEC = 1_000_000_000n;

/** Whole seconds, at least 1 (sub-second intervals still run once a second). */
const secs = (ns: bigint): number => Math.max(1, Number((ns + NS_PER_SEC - 1n) / NS_PER_SEC));

/**
 * 1.x's normalization of a CQ: its measurements get the CQ's database and the request's `rp`
 * (else the database default), and each (database, policy) must exist.
 */
function qualifiedSource(stmt: CreateContinuousQueryStatement, ctx: QueryContext): SelectStatement {
  const source = qualifySelectWith(stmt.source, stmt.database, ctx.retentionPolicy, (d) => ctx.engine.catalog.database(d)?.defaultRp ?? '');
  const check = (m: { readonly database: string; readonly retentionPolicy: string }): void => {
    const info = requireDatabase(ctx, m.database);
    if (!info.rps.some((r) => r.name === m.retentionPolicy)) throw new RetentionPolicyNotFoundError(`${m.database}.${m.retentionPolicy}`);
  };
  const walk = (s: SelectStatement): void => {
    for (const src of s.sources) (src.kind === 'SubQuery' ? walk(src.statement) : check(src));
    if (s.target) check(s.target);
  };
  walk(source);
  return source;
}

export async function createContinuousQuery(stmt: CreateContinuousQueryStatement, ctx: QueryContext): Promise<StatementOutput> {
  requireDatabase(ctx, stmt.database);
  const source = qualifiedSource(stmt, ctx);
  // 1.x's parser already refuses an aggregate without GROUP BY time; a raw one is accepted
  // and never runs (the scheduler skips it).
  const interval = groupByInterval(source);
  const given = { every: stmt.resampleEvery !== null, for: stmt.resampleFor !== null };
  const info: ContinuousQueryInfo = {
    name: stmt.name,
    database: stmt.database,
    queryText: printSelect(source),
    // Without an interval (never scheduled) an unset RESAMPLE is stored as 0.
    resampleEverySec: resampleSecs(stmt.resampleEvery, interval),
    resampleForSec: resampleSecs(stmt.resampleFor, interval),
    resampleGiven: given,
    createdAt: new Date(Number(ctx.nowNs / 1_000_000n)).toISOString(),
  };
  await ctx.engine.catalog.createContinuousQuery(info);
  const stored = ctx.engine.catalog.continuousQueries().find((c) => c.database === info.database && c.name === info.name);
  const sameGiven = stored?.resampleGiven === undefined || (stored.resampleGiven.every === given.every && stored.resampleGiven.for === given.for);
  if (stored && (stored.resampleEverySec !== info.resampleEverySec || stored.resampleForSec !== info.resampleForSec || !sameGiven)) {
    throw new MetaError('continuous query already exists', 'cq_exists');
  }
  return EMPTY_OUTPUT;
}

export async function dropContinuousQuery(stmt: DropContinuousQueryStatement, ctx: QueryContext): Promise<StatementOutput> {
  const catalog = ctx.engine.catalog;
  if (!catalog.continuousQueries().some((c) => c.database === stmt.database && c.name === stmt.name)) return EMPTY_OUTPUT;
  await catalog.dropContinuousQuery(stmt.database, stmt.name);
  return EMPTY_OUTPUT;
}

function resampleSecs(given: bigint | null, interval: bigint | null): number {
  if (given !== null) return secs(given);
  return interval === null ? 0 : secs(interval);
}

/** The 1.x SHOW CONTINUOUS QUERIES text of a stored definition (RESAMPLE as written; older catalogs: when not the default). */
export function cqCreateText(cq: ContinuousQueryInfo): string {
  let source;
  try {
    const parsed = parseStatement(cq.queryText);
    if (parsed.kind !== 'Select') return cq.queryText;
    source = parsed;
  } catch {
    return cq.queryText;
  }
  const interval = groupByInterval(source);
  const every = BigInt(cq.resampleEverySec) * NS_PER_SEC;
  const forNs = BigInt(cq.resampleForSec) * NS_PER_SEC;
  const stmt: CreateContinuousQueryStatement = {
    kind: 'CreateContinuousQuery',
    name: cq.name,
    database: cq.database,
    resampleEvery: (cq.resampleGiven?.every ?? resampleSecs(null, interval) !== cq.resampleEverySec) ? every : null,
    resampleFor: (cq.resampleGiven?.for ?? resampleSecs(null, interval) !== cq.resampleForSec) ? forNs : null,
    source,
  };
  return printAs1x(() => printStatement(stmt));
}

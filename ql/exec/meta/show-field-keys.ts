/**
 * SHOW FIELD KEYS [ON db] [FROM [rp.]m | /re/] [LIMIT] [OFFSET]: one series per measurement
 * with `fieldKey,fieldType` (float|integer|string|boolean|unsigned), byte order. Field sets are
 * those of the shards of one retention policy, as in 1.x: the policy named in FROM, else the
 * request's `rp`, else the database's default (`retention policy not found: x` when it does
 * not exist).
 */
import { FIELD_TYPE_NAMES, MAX_TIME_NS, MIN_TIME_NS, RetentionPolicyNotFoundError } from '../../../engine/index.js';
import type { DatabaseInfo, FieldType, MeasurementIndex } from '../../../engine/index.js';
import type { Source } from '../../ast/nodes.js';
import type { ShowFieldKeysStatement } from '../../ast/statements.js';
import type { ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { byteOrder, defaultPolicy, output, page, requireDatabase, selectMeasurements, series, seriesIndex } from './common.js';
import { fieldsInPolicy } from './data-probe.js';
import { sourceDatabase } from './source-scope.js';

/** The policy a source reads: its own qualifier, the request's `rp` (for its database), or the database default. */
export function sourcePolicy(ctx: QueryContext, info: DatabaseInfo, source: Source | undefined): string {
  const named = source?.kind === 'Measurement' ? source.retentionPolicy : '';
  if (!named) return defaultPolicy(ctx, info);
  if (!info.rps.some((r) => r.name === named)) throw new RetentionPolicyNotFoundError(named);
  return named;
}

/** Measurements of FROM with the policy each is read in (every source may name its own). */
export function measurementsWithPolicy(ctx: QueryContext, info: DatabaseInfo, sources: readonly Source[]): { m: MeasurementIndex; rp: string }[] {
  const index = seriesIndex(ctx, info.name);
  if (!index) {
    sourcePolicy(ctx, info, sources[0]);
    return [];
  }
  const groups = sources.length === 0 ? [undefined] : sources;
  const seen = new Map<string, { m: MeasurementIndex; rp: string }>();
  for (const src of groups) {
    const rp = sourcePolicy(ctx, info, src);
    for (const m of selectMeasurements(index, src ? [src] : [])) if (!seen.has(m.name)) seen.set(m.name, { m, rp });
  }
  return [...seen.values()].sort((a, b) => byteOrder(a.m.name, b.m.name));
}

/**
 * 1.6.7 merges the field sets of the policy's shards that exist, so a field only a dropped or
 * expired shard held is gone (a DELETE keeps it: the shard keeps its set).
 */
export function fieldsOf(ctx: QueryContext, db: string, rp: string, m: MeasurementIndex): [string, FieldType][] {
  const inShards = ctx.engine.fieldsInRange(db, rp, m.name, MIN_TIME_NS, MAX_TIME_NS);
  if (!inShards) return [];
  return [...fieldsInPolicy(ctx, db, rp, m)].filter(([k]) => inShards.has(k)).sort((a, b) => byteOrder(a[0], b[0]));
}

export async function showFieldKeys(stmt: ShowFieldKeysStatement, ctx: QueryContext): Promise<StatementOutput> {
  const db = sourceDatabase(ctx, stmt.database, stmt.sources);
  const info = requireDatabase(ctx, db);
  const out: ResultSeries[] = [];
  for (const { m, rp } of measurementsWithPolicy(ctx, info, stmt.sources)) {
    const rows = page(fieldsOf(ctx, db, rp, m), stmt.limit, stmt.offset);
    if (rows.length > 0) out.push(series(m.name, ['fieldKey', 'fieldType'], rows.map(([k, t]) => [k, FIELD_TYPE_NAMES[t]])));
  }
  return output(out);
}

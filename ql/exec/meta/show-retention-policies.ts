/** SHOW RETENTION POLICIES [ON db]: unnamed series `name,duration,shardGroupDuration,replicaN,default`, Go durations. */
import { formatGoDuration } from '../../../engine/index.js';
import type { ShowRetentionPoliciesStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { databaseName, output, requireDatabase, series } from './common.js';

export function showRetentionPolicies(stmt: ShowRetentionPoliciesStatement, ctx: QueryContext): StatementOutput {
  const info = requireDatabase(ctx, databaseName(stmt.database, ctx));
  const rows = info.rps.map((rp) => [
    rp.name,
    formatGoDuration(rp.durationSec),
    formatGoDuration(rp.shardGroupDurationSec),
    rp.replicaN,
    rp.name === info.defaultRp,
  ]);
  return output([{ ...series(undefined, ['name', 'duration', 'shardGroupDuration', 'replicaN', 'default'], rows), goIntColumns: [3] }]);
}

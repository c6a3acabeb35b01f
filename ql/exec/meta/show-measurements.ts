/**
 * SHOW MEASUREMENTS [ON db] [WITH MEASUREMENT = name | =~ /re/] [WHERE tags] [LIMIT] [OFFSET].
 *
 * 1.x (inmem index) evaluates WHERE per measurement, not per series: `k = v` / `k =~ re` keeps a
 * measurement when one of its values of `k` matches, `k != v` / `k !~ re` when none does, and a
 * measurement without tag key `k` never matches; AND / OR intersect / unite. `_name` compares
 * the measurement name. A database that does not exist (or has no data) answers no series.
 */
import type { Expr } from '../../ast/nodes.js';
import { compileRegex } from '../../ast/regex.js';
import type { ShowMeasurementsStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { databaseName, output, page, selectMeasurements, series, seriesIndex } from './common.js';
import { invalidTagComparison, MetaError, RewriteError } from './errors.js';
import { mentionsTime } from './tag-cond.js';

function matchesValue(value: Expr, candidate: string): boolean {
  if (value.kind === 'Regex') return compileRegex(value.source).test(candidate);
  if (value.kind === 'String') return value.value === candidate;
  return false;
}

/** What measurementMatches reads of a measurement. */
interface MeasurementTags {
  readonly name: string;
  readonly tags: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
}

/** Nothing to match: walking the condition over it only checks every comparison. */
const NO_MEASUREMENT: MeasurementTags = { name: '', tags: new Map() };

/**
 * 1.x measurementNamesByExpr for one measurement. Both sides of AND / OR are evaluated, as
 * 1.x does: a refused comparison is the statement's error even where the other side decides.
 */
function measurementMatches(e: Expr, m: MeasurementTags): boolean {
  if (e.kind === 'Boolean') return e.value;
  if (e.kind !== 'Binary') throw invalidTagComparison();
  if (e.op === 'AND' || e.op === 'OR') {
    const left = measurementMatches(e.lhs, m);
    const right = measurementMatches(e.rhs, m);
    return e.op === 'AND' ? left && right : left || right;
  }
  if (e.op !== '=' && e.op !== '!=' && e.op !== '=~' && e.op !== '!~') throw invalidTagComparison();
  const ref = e.lhs.kind === 'VarRef' ? e.lhs : e.rhs.kind === 'VarRef' ? e.rhs : null;
  if (!ref) throw invalidTagComparison();
  const value = ref === e.lhs ? e.rhs : e.lhs;
  if ((e.op === '=' || e.op === '!=') && value.kind !== 'String') throw new MetaError(`right side of '${e.op}' must be a tag value string`, 'invalid_tag_comparison');
  const positive = e.op === '=' || e.op === '=~';
  if (ref.name === '_name') return matchesValue(value, m.name) === positive;
  if (ref.name.startsWith('_')) return false;
  const values = m.tags.get(ref.name);
  if (!values) return false;
  let hit = false;
  for (const v of values.keys()) {
    if (matchesValue(value, v)) {
      hit = true;
      break;
    }
  }
  return hit === positive;
}

export function showMeasurements(stmt: ShowMeasurementsStatement, ctx: QueryContext): StatementOutput {
  const db = databaseName(stmt.database, ctx);
  if (stmt.condition && mentionsTime(stmt.condition)) {
    throw new RewriteError("SHOW MEASUREMENTS doesn't support time in WHERE clause", 'time_not_supported');
  }
  const index = seriesIndex(ctx, db);
  if (!ctx.engine.catalog.database(db) || !index) return EMPTY_OUTPUT;
  let list = selectMeasurements(index, stmt.source ? [stmt.source] : []);
  const cond = stmt.condition;
  if (cond) {
    // 1.x checks the condition over its whole index before WITH MEASUREMENT narrows it
    measurementMatches(cond, NO_MEASUREMENT);
    list = list.filter((m) => measurementMatches(cond, m));
  }
  const names = page(list.map((m) => m.name), stmt.limit, stmt.offset);
  if (names.length === 0) return EMPTY_OUTPUT;
  return output([series('measurements', ['name'], names.map((n) => [n]))]);
}

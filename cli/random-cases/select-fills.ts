/**
 * Random GROUP BY time SELECTs about fill() and the types 1.x gives calls: calls over a field
 * of the measurement, of another measurement of FROM only, of no measurement at all, or over a
 * string or boolean field, beside each other, inside expressions and transforms, under every
 * fill (numbers integral, fractional and negative), GROUP BY tags, ORDER BY time DESC,
 * LIMIT/OFFSET, several measurements in FROM and subqueries whose columns are such calls.
 */
import { MEASUREMENTS, TELEMETRY } from './dataset-shape.js';
import { timeRange, type Picker } from './pick.js';

const AGGREGATES = ['count', 'sum', 'mean', 'median', 'mode', 'spread', 'stddev', 'min', 'max', 'first', 'last', 'integral'];
const FILLS = ['0', '7', '-1.5', '2.5', '100', '7', '-3', 'previous', 'linear', 'null', 'none'];

/** A field for a call over FROM's first measurement `m`: its own, another measurement's, none's, a string or boolean one. */
function field(p: Picker, m: string, from: readonly string[]): string {
  const k = p.r();
  if (k < 0.45) return p.pick(TELEMETRY[m]!.numeric);
  if (k < 0.65) {
    const other = p.pick(MEASUREMENTS.filter((x) => x !== m && (from.length === 1 || from.includes(x))));
    return p.pick(TELEMETRY[other]!.numeric);
  }
  if (k < 0.85) return p.pick(['nosuch', 'zz']);
  return p.pick(['message', 'ok']);
}

function aggregate(p: Picker, f: string): string {
  const k = p.r();
  if (k < 0.75) return `${p.pick(AGGREGATES)}(${f})`;
  if (k < 0.9) return `percentile(${f}, ${p.pick([10, 50, 90])})`;
  return `count(distinct(${f}))`;
}

function column(p: Picker, m: string, from: readonly string[]): string {
  const a = aggregate(p, field(p, m, from));
  const k = p.r();
  if (k < 0.6) return a;
  if (k < 0.7) return `${a} * ${p.pick([2, -1, 0.5])}`;
  if (k < 0.78) return `${a} + ${aggregate(p, field(p, m, from))}`;
  if (k < 0.83) return `abs(${a})`;
  const inner = `${p.pick(['mean', 'max', 'count', 'sum', 'first'])}(${field(p, m, from)})`;
  return p.pick([`derivative(${inner}, 1h)`, `difference(${inner})`, `cumulative_sum(${inner})`, `moving_average(${inner}, 2)`, `non_negative_difference(${inner})`, `elapsed(${inner}, 1m)`]);
}

function statement(p: Picker, from: readonly string[], range: string, withTime: boolean): string {
  const m = from[0]!;
  const cols = Array.from({ length: 1 + Math.floor(p.r() * 3) }, () => column(p, m, from));
  const tags = Object.keys(TELEMETRY[m]!.tags);
  const group = withTime ? ` GROUP BY time(${p.pick(['30m', '1h', '2h', '3h'])})${p.chance(0.35) ? `, ${p.pick([...tags, '*'])}` : ''}` : p.chance(0.3) ? ` GROUP BY ${p.pick(tags)}` : '';
  const order = p.chance(0.2) ? ' ORDER BY time DESC' : '';
  const limit = p.chance(0.15) ? ` LIMIT ${p.pick([1, 2, 3])}${p.chance(0.5) ? ` OFFSET ${p.pick([1, 2])}` : ''}` : '';
  return `SELECT ${cols.join(', ')} FROM ${from.join(', ')} WHERE ${range}${group} fill(${p.pick(FILLS)})${order}${limit}`;
}

/** An outer aggregate over an inner one whose columns may be calls over absent fields. */
function subquery(p: Picker, m: string, range: string): string {
  const own = p.pick(TELEMETRY[m]!.numeric);
  const absent = p.pick(['nosuch', p.pick(TELEMETRY[p.pick(MEASUREMENTS.filter((x) => x !== m))]!.numeric)]);
  const inner = `SELECT ${p.pick(['max', 'mean', 'sum'])}(${own}) AS a, ${p.pick(['max', 'count', 'mean', 'last'])}(${absent}) AS b FROM ${m} WHERE ${range} GROUP BY time(${p.pick(['30m', '1h'])})${p.chance(0.4) ? ` fill(${p.pick(FILLS)})` : ''}`;
  const outer = p.pick([`sum(a), ${p.pick(['count', 'sum', 'mean', 'max'])}(b)`, `mean(b), max(a)`, `count(b) + sum(a)`, `max(b) * 2, min(a)`, `a, b`]);
  if (outer === 'a, b') return `SELECT a, b FROM (${inner})`;
  return `SELECT ${outer} FROM (${inner}) WHERE ${range} GROUP BY time(${p.pick(['1h', '2h'])}) fill(${p.pick(FILLS)})`;
}

export function randomFillSelect(p: Picker): string {
  const m = p.pick(MEASUREMENTS);
  const range = timeRange(p, ...TELEMETRY[m]!.span);
  const k = p.r();
  if (k < 0.15) return subquery(p, m, range);
  const from = k < 0.4 ? [m, p.pick(MEASUREMENTS.filter((x) => x !== m))] : [m];
  return statement(p, from, range, k < 0.9);
}

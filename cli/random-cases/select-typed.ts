/**
 * Random SELECTs over the shared dataset's `events` (string, boolean, integer and float fields
 * side by side): every aggregate on every type (errors included), conditions on strings and
 * booleans, integer arithmetic and bit operators, casts, fill over strings, auxiliary fields.
 */
import { timeRange, type Picker } from './pick.js';

const FIELDS = ['message', 'ok', 'code', 'latency'];
const CALLS = [
  'count', 'first', 'last', 'mode', 'distinct', 'min', 'max', 'sum', 'mean', 'median', 'spread', 'stddev', 'integral',
];

function condition(p: Picker): string {
  return p.pick([
    "message = 'disk full'", "message != 'ok'", 'message =~ /word/', 'message !~ /^$/', "message = ''", "message > 'm'",
    'ok = true', 'ok != true', 'ok = false AND code > 300', 'code = 404 OR code = 500', 'latency >= 1.0', 'code * 2 > 900',
    "level = 'error'", 'level =~ /^e/', "host = 'server02' OR message =~ /^a/", 'latency < 0.5 AND ok', 'code % 3 = 2', "message =~ /\\\\/",
  ]);
}

function where(p: Picker, needTime: boolean): string {
  const c: string[] = [];
  if (needTime || p.chance(0.6)) c.push(timeRange(p, 0, 24));
  // parenthesized: a bare OR beside the time range is the documented OR-on-time deviation
  if (p.chance(0.6)) c.push(`(${condition(p)})`);
  return c.length ? ` WHERE ${c.join(' AND ')}` : '';
}

function call(p: Picker): string {
  const f = p.pick(FIELDS);
  const k = p.r();
  if (k < 0.6) return `${p.pick(CALLS)}(${f})`;
  if (k < 0.7) return `percentile(${f}, ${p.pick([10, 50, 90])})`;
  if (k < 0.8) return `${p.pick(['top', 'bottom'])}(${p.pick(['code', 'latency'])}, ${p.chance(0.4) ? `${p.pick(['host', 'level'])}, ` : ''}${p.pick([1, 2, 3])})`;
  if (k < 0.9) return `count(distinct(${f}))`;
  return `${p.pick(['first', 'last', 'min', 'max'])}(${p.pick(['code', 'latency'])}), ${p.pick(['message', 'ok', 'level'])}`;
}

function rawColumns(p: Picker): string {
  return p.pick([
    '*', 'message, ok', 'code % 7, code / 3, -latency', 'code & 4, code | 1, code ^ 2', 'code::float, latency::integer',
    'message::tag, level::field', 'ok, level, host', 'code * latency, code + 1', '"message", "code"', '/^(ok|code)$/',
  ]);
}

const groupByTags = (p: Picker): string => (p.chance(0.35) ? `, ${p.pick(['level', 'host', '*'])}` : '');
const orderAndLimit = (p: Picker): string => `${p.chance(0.2) ? ' ORDER BY time DESC' : ''}${p.chance(0.25) ? ` LIMIT ${p.pick([1, 3])}` : ''}${p.chance(0.1) ? ' SLIMIT 1' : ''}`;

export function randomTypedSelect(p: Picker): string {
  const k = p.r();
  if (k < 0.3) return `SELECT ${rawColumns(p)} FROM events${where(p, false)}${p.chance(0.3) ? ` GROUP BY ${p.pick(['level', 'host', '*'])}` : ''}${orderAndLimit(p)}`;
  if (k < 0.55) return `SELECT ${call(p)} FROM events${where(p, false)}${p.chance(0.4) ? ` GROUP BY ${p.pick(['level', 'host'])}` : ''}${orderAndLimit(p)}`;
  const c = call(p);
  const fill = /top|bottom|distinct|percentile|,/.test(c) || !p.chance(0.4) ? '' : ` fill(${p.pick(['null', 'none', '0', 'previous', 'linear'])})`;
  return `SELECT ${c} FROM events${where(p, true)} GROUP BY time(${p.pick(['1h', '3h', '30m', '6h'])})${groupByTags(p)}${fill}${orderAndLimit(p)}`;
}

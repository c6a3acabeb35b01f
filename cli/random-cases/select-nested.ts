/**
 * Random SELECTs over several sources: subqueries of every shape (raw, aggregate, grouped by
 * tags and time, nested twice, with math, conditions and limits inside and outside) and FROM
 * lists or regexes spanning measurements with different fields and tags.
 */
import { MEASUREMENTS, TELEMETRY } from './dataset-shape.js';
import { timeRange, type Picker } from './pick.js';

const OUTER = ['max', 'min', 'mean', 'sum', 'count', 'first', 'last', 'spread', 'median', 'stddev'];

function innerSelect(p: Picker, m: string, range: string): { q: string; cols: string[] } {
  const s = TELEMETRY[m]!;
  const tags = Object.keys(s.tags);
  const f = p.pick(s.numeric);
  const g = p.pick(s.numeric);
  const k = p.r();
  if (k < 0.25) return { q: `SELECT ${f}, ${g}${p.chance(0.5) ? `, ${tags[0]}` : ''} FROM ${m} WHERE ${range}${p.chance(0.3) ? ` AND ${f} > ${p.pick([1, 10, 50])}` : ''}`, cols: [f, g] };
  if (k < 0.5) return { q: `SELECT ${p.pick(OUTER)}(${f}) AS a, ${p.pick(OUTER)}(${g}) AS b FROM ${m} WHERE ${range} GROUP BY time(${p.pick(['10m', '30m', '1h'])})${p.chance(0.6) ? `, ${p.pick([...tags, '*'])}` : ''}${p.chance(0.3) ? ` fill(${p.pick(['0', 'none', 'previous'])})` : ''}`, cols: ['a', 'b'] };
  if (k < 0.65) return { q: `SELECT ${f} * 2 AS d, ${g} - ${f} AS e FROM ${m} WHERE ${range}`, cols: ['d', 'e'] };
  if (k < 0.8) return { q: `SELECT ${p.pick(['max', 'min', 'first', 'last'])}(${f}) AS sel FROM ${m} WHERE ${range} GROUP BY ${p.pick(tags)}${p.chance(0.4) ? ` LIMIT 1` : ''}`, cols: ['sel'] };
  if (k < 0.9) return { q: `SELECT ${p.pick(['derivative', 'difference', 'cumulative_sum'])}(${f}) AS t FROM ${m} WHERE ${range}`, cols: ['t'] };
  const inner = innerSelect(p, m, range);
  const c = p.pick(inner.cols);
  return { q: `SELECT ${p.pick(['max', 'mean', 'sum'])}(${c}) AS n2 FROM (${inner.q}) WHERE ${range} GROUP BY time(${p.pick(['1h', '2h'])})`, cols: ['n2'] };
}

function subquery(p: Picker): string {
  const m = p.pick(MEASUREMENTS);
  const s = TELEMETRY[m]!;
  const range = timeRange(p, ...s.span);
  const inner = innerSelect(p, m, range);
  const c = p.pick(inner.cols);
  const k = p.r();
  const where = p.chance(0.3) ? ` WHERE ${c} > ${p.pick([0, 5, 20])}` : '';
  if (k < 0.2) return `SELECT * FROM (${inner.q})${where}${p.chance(0.3) ? ' LIMIT 3' : ''}`;
  if (k < 0.35) return `SELECT ${c}${p.chance(0.5) ? ` * 10` : ''} FROM (${inner.q})${where}${p.chance(0.3) ? ' ORDER BY time DESC LIMIT 2' : ''}`;
  const outer = `${p.pick(OUTER)}(${c})${p.chance(0.3) ? `, count(${c})` : ''}`;
  const group = p.chance(0.5) ? ` GROUP BY time(${p.pick(['1h', '2h', '30m'])})` : '';
  const tagGroup = p.chance(0.35) ? `${group ? ',' : ' GROUP BY'} ${p.pick([...Object.keys(s.tags), '*'])}` : '';
  const bounds = group ? `${where ? `${where} AND` : ' WHERE'} ${range}` : where;
  return `SELECT ${outer} FROM (${inner.q})${bounds}${group}${tagGroup}${p.chance(0.2) ? ' fill(0)' : ''}`;
}

function multiSource(p: Picker): string {
  const from = p.pick(['cpu, mem', 'mem, net', '/^(cpu|mem)$/', '/e/', 'cpu, diskio', 'net, sparse', '/./']);
  const range = timeRange(p, 0, 24);
  const k = p.r();
  if (k < 0.3) return `SELECT * FROM ${from} WHERE ${range}${p.chance(0.4) ? ' GROUP BY *' : ''} LIMIT ${p.pick([1, 2])}`;
  if (k < 0.55) return `SELECT ${p.pick(['count', 'max', 'mean', 'last'])}(*) FROM ${from} WHERE ${range}${p.chance(0.4) ? ' GROUP BY host' : ''}`;
  if (k < 0.8) return `SELECT ${p.pick(['mean', 'max', 'count'])}(${p.pick(['used', 'usage_user', 'bytes_recv', 'temp', 'free'])}) FROM ${from} WHERE ${range} GROUP BY time(${p.pick(['2h', '6h'])})${p.chance(0.4) ? ', host' : ''}${p.chance(0.3) ? ' fill(none)' : ''}`;
  return `SELECT ${p.pick(['host', 'usage_user', 'used', 'bytes_recv'])}, ${p.pick(['free', 'err', 'usage_idle'])} FROM ${from} WHERE ${range}${p.chance(0.3) ? " AND host = 'server01'" : ''} ORDER BY time DESC LIMIT 2`;
}

export function randomNestedSelect(p: Picker): string {
  return p.chance(0.7) ? subquery(p) : multiSource(p);
}

/**
 * Random SELECTs over the shared dataset: aggregates, selectors, transforms, fill, GROUP BY
 * time/tags, subqueries, ORDER BY/LIMIT/SLIMIT, tz(). Every GROUP BY time has both bounds, so
 * answers never depend on the wall clock.
 */
import { MEASUREMENTS, TELEMETRY } from './dataset-shape.js';
import { timeRange, type Picker } from './pick.js';

const AGGREGATES = ['mean', 'median', 'count', 'sum', 'min', 'max', 'first', 'last', 'spread', 'stddev', 'mode', 'distinct', 'integral'];
const TRANSFORMS = ['derivative', 'non_negative_derivative', 'difference', 'non_negative_difference', 'moving_average', 'cumulative_sum'];

function tagCondition(p: Picker, m: string): string {
  const tags = TELEMETRY[m]!.tags;
  const k = p.pick(Object.keys(tags));
  const v = p.pick(tags[k]!);
  return p.pick([`${k} = '${v}'`, `${k} != '${v}'`, `${k} =~ /${v.slice(0, 5)}/`, `${k} !~ /^${v}$/`, `(${k} = '${v}' OR ${k} = '${p.pick(tags[k]!)}')`]);
}

function where(p: Picker, m: string, needTime: boolean): string {
  const c: string[] = [];
  if (needTime || p.chance(0.7)) c.push(timeRange(p, ...TELEMETRY[m]!.span));
  if (p.chance(0.4)) c.push(tagCondition(p, m));
  if (p.chance(0.2)) c.push(`${p.pick(TELEMETRY[m]!.numeric)} ${p.pick(['>', '<', '>=', '!='])} ${p.pick([0, 1, 10, 20.5, 50, 1000])}`);
  return c.length ? ` WHERE ${c.join(' AND ')}` : '';
}

function groupBy(p: Picker, m: string, byTime: boolean): string {
  const parts: string[] = [];
  if (byTime) parts.push(`time(${p.pick(['10m', '30m', '1h', '2h', '15m', '7m'])}${p.chance(0.2) ? `, ${p.pick(['5m', '-5m', '1m'])}` : ''})`);
  const tags = Object.keys(TELEMETRY[m]!.tags);
  if (p.chance(0.45)) parts.push(p.pick([...tags, '*', tags.join(', '), '/o/']));
  return parts.length ? ` GROUP BY ${parts.join(', ')}` : '';
}

function aggregate(p: Picker, m: string): string {
  const f = p.pick(TELEMETRY[m]!.numeric);
  const k = p.r();
  if (k < 0.55) return `${p.pick(AGGREGATES)}(${f})`;
  if (k < 0.65) return `percentile(${f}, ${p.pick([5, 50, 90, 99, 100])})`;
  if (k < 0.72) return `${p.pick(['top', 'bottom'])}(${f}, ${p.pick([1, 2, 3])})`;
  if (k < 0.78) return `count(distinct(${f}))`;
  if (k < 0.84) return `${p.pick(['mean', 'max', 'sum'])}(${f}) ${p.pick(['*', '+', '-', '/'])} ${p.pick([2, 0.5, 10])}`;
  if (k < 0.9) return `${p.pick(['abs', 'floor', 'ceil', 'round', 'sqrt', 'ln'])}(${p.pick(['mean', 'max', 'min', 'last'])}(${f}))`;
  return `${p.pick(['mean', 'max'])}(${f}), ${p.pick(['min', 'count'])}(${p.pick(TELEMETRY[m]!.numeric)})`;
}

function transform(p: Picker, m: string, overAggregate: boolean): string {
  const f = p.pick(TELEMETRY[m]!.numeric);
  const inner = overAggregate ? `${p.pick(['mean', 'max', 'sum', 'last'])}(${f})` : f;
  const fn = p.pick(TRANSFORMS);
  if (fn === 'moving_average') return `moving_average(${inner}, ${p.pick([2, 3])})`;
  if (fn.endsWith('derivative')) return `${fn}(${inner}${p.chance(0.5) ? `, ${p.pick(['1m', '1h', '10m'])}` : ''})`;
  return `${fn}(${inner})`;
}

const fill = (p: Picker): string => (p.chance(0.3) ? ` fill(${p.pick(['null', 'none', '0', '-1', 'previous', 'linear'])})` : '');

/** ORDER BY time DESC, LIMIT/OFFSET, SLIMIT/SOFFSET and tz(), each sometimes. */
export function orderAndLimits(p: Picker): string {
  let s = '';
  if (p.chance(0.25)) s += ' ORDER BY time DESC';
  if (p.chance(0.3)) s += ` LIMIT ${p.pick([1, 2, 5])}`;
  if (p.chance(0.15)) s += ` OFFSET ${p.pick([1, 2])}`;
  if (p.chance(0.1)) s += ` SLIMIT ${p.pick([1, 2])}`;
  if (p.chance(0.05)) s += ' SOFFSET 1';
  if (p.chance(0.08)) s += ` tz('${p.pick(['America/New_York', 'Europe/Berlin', 'Asia/Kolkata'])}')`;
  return s;
}

export function randomSelect(p: Picker): string {
  const m = p.pick(MEASUREMENTS);
  const shape = TELEMETRY[m]!;
  const k = p.r();
  if (k < 0.18) {
    const cols = p.pick(['*', shape.fields.join(', '), `${p.pick(shape.fields)}, ${Object.keys(shape.tags)[0]}`, `${p.pick(shape.numeric)} * 2 + 1`, `/${p.pick(['u', 'e', 's'])}/`]);
    return `SELECT ${cols} FROM ${m}${where(p, m, false)}${groupBy(p, m, false)}${orderAndLimits(p)}`;
  }
  if (k < 0.35) return `SELECT ${aggregate(p, m)} FROM ${m}${where(p, m, false)}${groupBy(p, m, false)}${orderAndLimits(p)}`;
  if (k < 0.65) {
    const e = aggregate(p, m);
    return `SELECT ${e} FROM ${m}${where(p, m, true)}${groupBy(p, m, true)}${/top|bottom|distinct/.test(e) ? '' : fill(p)}${orderAndLimits(p)}`;
  }
  if (k < 0.75) return `SELECT ${transform(p, m, false)} FROM ${m}${where(p, m, false)}${groupBy(p, m, false)}${orderAndLimits(p)}`;
  if (k < 0.85) return `SELECT ${transform(p, m, true)} FROM ${m}${where(p, m, true)}${groupBy(p, m, true)}${fill(p)}${orderAndLimits(p)}`;
  if (k < 0.93) {
    const f = p.pick(shape.numeric);
    const aux = p.pick(shape.fields.filter((x) => x !== f));
    return `SELECT ${p.pick(['min', 'max', 'first', 'last'])}(${f}), ${aux} FROM ${m}${where(p, m, true)}${groupBy(p, m, p.chance(0.4))}${orderAndLimits(p)}`;
  }
  const range = timeRange(p, ...shape.span);
  const inner = `SELECT ${p.pick(['mean', 'max'])}(${p.pick(shape.numeric)}) FROM ${m} WHERE ${range} GROUP BY time(${p.pick(['10m', '30m', '1h'])}), ${Object.keys(shape.tags)[0]}`;
  const outer = p.chance(0.5) ? ` WHERE ${range} GROUP BY time(${p.pick(['1h', '2h'])})` : '';
  return `SELECT ${p.pick(['max', 'mean', 'sum', 'count', 'min'])}(${p.pick(['mean', 'max'])}) FROM (${inner})${outer}`;
}

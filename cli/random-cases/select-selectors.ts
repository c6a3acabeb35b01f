/**
 * Random SELECTs over the shared dataset in the shapes dashboards and client libraries use
 * for rankings and rates, which the other generators touch only alone: top()/bottom() with tag
 * arguments and beside other fields and tags, sample() asking for more points than a window
 * holds (every point: deterministic), distinct() and percentile() grouped by tags and beside
 * auxiliary fields, and transforms (derivative / non_negative_derivative with a unit,
 * difference, moving_average, cumulative_sum, elapsed) over aggregates with GROUP BY time,
 * tags, fill and LIMIT, or over raw values under ORDER BY time DESC.
 */
import { TELEMETRY } from './dataset-shape.js';
import { timeRange, type Picker } from './pick.js';
import { orderAndLimits } from './select.js';

const M = ['cpu', 'mem', 'net', 'events', 'diskio'];

function tagKeys(m: string): string[] {
  return Object.keys(TELEMETRY[m]!.tags);
}

function tagCondition(p: Picker, m: string): string {
  if (!p.chance(0.35)) return '';
  const k = p.pick(tagKeys(m));
  const v = p.pick(TELEMETRY[m]!.tags[k]!);
  return ` AND ${p.pick([`${k} = '${v}'`, `${k} != '${v}'`, `${k} =~ /${v.slice(-2)}$/`])}`;
}

function groupBy(p: Picker, m: string, byTime: boolean): string {
  const parts: string[] = [];
  if (byTime) parts.push(`time(${p.pick(['10m', '30m', '1h', '2h'])})`);
  if (p.chance(0.5)) parts.push(p.pick([...tagKeys(m), '*']));
  return parts.length ? ` GROUP BY ${parts.join(', ')}` : '';
}

/** A ranking call and what may stand beside it. */
function ranking(p: Picker, m: string): string {
  const s = TELEMETRY[m]!;
  const f = p.pick(s.numeric);
  const other = p.pick(s.fields.filter((x) => x !== f));
  const tag = p.pick(tagKeys(m));
  const n = p.pick([1, 2, 3, 5]);
  return p.pick([
    () => `${p.pick(['top', 'bottom'])}(${f}, ${tag}, ${n})`,
    () => `${p.pick(['top', 'bottom'])}(${f}, ${tag}, ${n}), ${other}`,
    () => `${p.pick(['top', 'bottom'])}(${f}, ${n}), ${tag}, ${other}`,
    () => `${p.pick(['top', 'bottom'])}(${f}, ${tagKeys(m).join(', ')}, ${n})`,
    () => `${p.pick(['top', 'bottom'])}(${f}, ${n}) AS v, ${other} AS o`,
    () => `sample(${f}, ${p.pick([1000, 5000])})`,
    () => `sample(${f}, 1000), ${tag}`,
    () => `distinct(${f})`,
    () => `count(distinct(${f}))`,
    () => `percentile(${f}, ${p.pick([1, 25, 50, 75, 95, 100])}), ${other}`,
    () => `percentile(${f}, ${p.pick([50, 90])}), ${tag}`,
    () => `${p.pick(['min', 'max', 'first', 'last'])}(${f}), ${other}, ${tag}`,
    () => `median(${f}), percentile(${f}, 50)`,
  ])();
}

function transformOverAggregate(p: Picker, m: string): string {
  const f = p.pick(TELEMETRY[m]!.numeric);
  const inner = `${p.pick(['mean', 'max', 'sum', 'last', 'count', 'min'])}(${f})`;
  return p.pick([
    () => `derivative(${inner}, ${p.pick(['1s', '1m', '10m', '1h'])})`,
    () => `non_negative_derivative(${inner}, ${p.pick(['1s', '1m', '1h'])})`,
    () => `difference(${inner})`,
    () => `non_negative_difference(${inner})`,
    () => `moving_average(${inner}, ${p.pick([2, 3, 5])})`,
    () => `cumulative_sum(${inner})`,
    () => `elapsed(${inner}, ${p.pick(['1s', '1m', '10m'])})`,
    () => `derivative(${inner}, 1m), ${inner}`,
    () => `difference(${inner}), cumulative_sum(${inner})`,
  ])();
}

function transformOverRaw(p: Picker, m: string): string {
  const s = TELEMETRY[m]!;
  const f = p.pick(s.numeric);
  const g = p.pick(s.numeric);
  return p.pick([
    () => `derivative(${f}, ${p.pick(['1s', '1m', '1h'])})`,
    () => `non_negative_derivative(${f}, 1m)`,
    () => `difference(${f}), ${g}`,
    () => `moving_average(${f}, ${p.pick([2, 4])})`,
    () => `cumulative_sum(${f})`,
    () => `elapsed(${f}${p.chance(0.5) ? `, ${p.pick(['1ms', '1s', '1m'])}` : ''})`,
    () => `elapsed(${p.pick(s.fields)}, 1s), difference(${f})`,
  ])();
}

export function randomSelectorQuery(p: Picker): string {
  const m = p.pick(M);
  const range = timeRange(p, ...TELEMETRY[m]!.span);
  const where = ` WHERE ${range}${tagCondition(p, m)}`;
  const k = p.r();
  if (k < 0.3) return `SELECT ${ranking(p, m)} FROM ${m}${where}${groupBy(p, m, false)}${orderAndLimits(p)}`;
  if (k < 0.5) {
    const r = ranking(p, m);
    const fill = /top|bottom|sample|distinct/.test(r) ? '' : p.chance(0.3) ? ` fill(${p.pick(['none', '0', 'null'])})` : '';
    return `SELECT ${r} FROM ${m}${where}${groupBy(p, m, true)}${fill}${orderAndLimits(p)}`;
  }
  if (k < 0.8) {
    const fill = p.chance(0.5) ? ` fill(${p.pick(['null', 'none', '0', 'previous', 'linear'])})` : '';
    return `SELECT ${transformOverAggregate(p, m)} FROM ${m}${where}${groupBy(p, m, true)}${fill}${orderAndLimits(p)}`;
  }
  return `SELECT ${transformOverRaw(p, m)} FROM ${m}${where}${p.chance(0.4) ? ` GROUP BY ${p.pick([...tagKeys(m), '*'])}` : ''}${orderAndLimits(p)}`;
}

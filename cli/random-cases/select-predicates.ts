/**
 * Random statements whose conditions and columns combine what the other generators keep apart:
 * WHERE trees of tag and field comparisons (regexes on tags and on string fields, fields against
 * fields and against arithmetic, booleans, strings, tags compared as numbers, a tag the series
 * lacks) joined by AND and OR in nested parentheses; math over several aggregates and over
 * transforms of aggregates under aliases; nested calls inside subqueries with an outer WHERE of
 * the same trees over the inner columns; and SHOW statements with every clause they take.
 * Time stays a top-level AND (OR on time is a documented deviation), so no answer shows a clock.
 */
import { MEASUREMENTS, TELEMETRY } from './dataset-shape.js';
import { timeRange, type Picker } from './pick.js';

const STRING_FIELDS: Readonly<Record<string, readonly string[]>> = { events: ['message'] };
const BOOL_FIELDS: Readonly<Record<string, readonly string[]>> = { events: ['ok'] };

function tagAtom(p: Picker, m: string): string {
  const tags = TELEMETRY[m]!.tags;
  const k = p.pick(Object.keys(tags));
  const v = p.pick(tags[k]!);
  return p.pick([
    `${k} = '${v}'`,
    `${k} != '${v}'`,
    `${k} =~ /^${v.slice(0, 4)}/`,
    `${k} !~ /${v.slice(-1)}$/`,
    `${k} =~ /(?i)^${v.toUpperCase()}$/`,
    `${k} = ''`,
    `nosuch = ''`,
    `nosuch != 'x'`,
    `${k} =~ /${v}|${p.pick(tags[k]!)}/`,
    `${k} > '${v}'`,
    `${k} = ${p.pick([1, 0])}`,
  ]);
}

function fieldAtom(p: Picker, m: string): string {
  const s = TELEMETRY[m]!;
  const f = p.pick(s.numeric);
  const g = p.pick(s.numeric);
  const n = p.pick([0, 1, 10, 20.5, 50, 100, 1000]);
  const atoms = [
    `${f} ${p.pick(['>', '<', '>=', '<=', '=', '!='])} ${n}`,
    `${f} > ${g}`,
    `${f} + ${g} > ${n}`,
    `${f} * 2 - ${g} < ${n}`,
    `${f} / ${p.pick([2, 0.5, 3])} >= ${n}`,
    `${f} % 2 = 0`,
    `-${f} < -${n}`,
    `${f} =~ /1/`,
    `${f} = ${f}`,
  ];
  for (const sf of STRING_FIELDS[m] ?? []) atoms.push(`${sf} =~ /${p.pick(['timeout', 'ok', '^a', '=', '.'])}/`, `${sf} != ''`, `${sf} = 'ok'`);
  for (const bf of BOOL_FIELDS[m] ?? []) atoms.push(`${bf} = ${p.pick(['true', 'false'])}`, `${bf} != true`);
  return p.pick(atoms);
}

/** A tree of up to `depth` levels of AND/OR over tag and field comparisons. */
function predicate(p: Picker, m: string, depth: number): string {
  if (depth <= 0 || p.chance(0.35)) return p.chance(0.5) ? tagAtom(p, m) : fieldAtom(p, m);
  const n = p.pick([2, 2, 3]);
  const op = p.pick([' AND ', ' OR ']);
  const parts = Array.from({ length: n }, () => predicate(p, m, depth - 1));
  return `(${parts.join(op)})`;
}

/** Columns: raw fields and tags, math over fields, under aliases sometimes. */
function rawColumns(p: Picker, m: string): string {
  const s = TELEMETRY[m]!;
  const f = p.pick(s.numeric);
  const g = p.pick(s.numeric);
  const tag = p.pick(Object.keys(s.tags));
  return p.pick(['*', `${f}, ${tag}`, `${f} - ${g} AS d, ${tag}`, `${f} * 100 / (${g} + 1) AS pct`, `${s.fields.join(', ')}`, `abs(${f} - ${g}) AS gap, ${f}`]);
}

/** Math over several aggregates and transforms of aggregates, with aliases. */
function aggregateColumns(p: Picker, m: string): string {
  const s = TELEMETRY[m]!;
  const [a, b] = [p.pick(s.numeric), p.pick(s.numeric)];
  return p.pick([
    `mean(${a}) AS avg, max(${a}) - min(${a}) AS range`,
    `sum(${a}) / count(${b}) AS ratio`,
    `(max(${a}) + min(${b})) / 2 AS mid, count(${a})`,
    `round(mean(${a}) * 100) / 100 AS r`,
    `abs(derivative(mean(${a}), 1m)) AS slope`,
    `derivative(max(${a})) - derivative(min(${a})) AS dd`,
    `moving_average(mean(${a}), 2) AS ma, mean(${a}) AS m`,
    `sqrt(abs(difference(sum(${a})))) AS sd`,
    `cumulative_sum(count(${a})) * 2 AS cs`,
    `max(${a}) / mean(${b}) * 100 AS "pct of mean"`,
    `percentile(${a}, 90) - percentile(${a}, 10) AS p`,
    `floor(stddev(${a})) AS sdev, spread(${b}) AS sp`,
    `last(${a}) - first(${a}) AS delta, ${p.pick(Object.keys(s.tags))}`,
  ]);
}

const fill = (p: Picker): string => (p.chance(0.35) ? ` fill(${p.pick(['null', 'none', '0', '-1', 'previous', 'linear'])})` : '');

function limits(p: Picker): string {
  let s = '';
  if (p.chance(0.2)) s += ' ORDER BY time DESC';
  if (p.chance(0.3)) s += ` LIMIT ${p.pick([1, 2, 5])}`;
  if (p.chance(0.1)) s += ` OFFSET ${p.pick([1, 2])}`;
  if (p.chance(0.1)) s += ` SLIMIT ${p.pick([1, 2])}`;
  return s;
}

function tagGroup(p: Picker, m: string, lead: string): string {
  const tags = Object.keys(TELEMETRY[m]!.tags);
  return p.chance(0.45) ? `${lead}${p.pick([...tags, '*', '/o/'])}` : '';
}

function rawSelect(p: Picker, m: string): string {
  const range = timeRange(p, ...TELEMETRY[m]!.span);
  const g = tagGroup(p, m, ' GROUP BY ');
  return `SELECT ${rawColumns(p, m)} FROM ${m} WHERE ${range} AND ${predicate(p, m, 3)}${g}${limits(p)}`;
}

function aggregateSelect(p: Picker, m: string): string {
  const range = timeRange(p, ...TELEMETRY[m]!.span);
  const interval = p.pick(['10m', '30m', '1h', '2h']);
  return `SELECT ${aggregateColumns(p, m)} FROM ${m} WHERE ${range} AND ${predicate(p, m, 2)} GROUP BY time(${interval})${tagGroup(p, m, ', ')}${fill(p)}${limits(p)}`;
}

/** A subquery with nested calls inside and an outer WHERE tree over its columns and tags. */
function nestedSelect(p: Picker, m: string): string {
  const s = TELEMETRY[m]!;
  const range = timeRange(p, ...s.span);
  const tags = Object.keys(s.tags);
  const tag = p.pick(tags);
  const a = p.pick(s.numeric);
  const inner = p.pick([
    `SELECT mean(${a}) AS x, max(${a}) - min(${a}) AS y FROM ${m} WHERE ${range} AND ${predicate(p, m, 1)} GROUP BY time(${p.pick(['10m', '30m'])}), ${tag}`,
    `SELECT derivative(mean(${a}), 1m) AS x, abs(difference(max(${a}))) AS y FROM ${m} WHERE ${range} GROUP BY time(${p.pick(['10m', '30m'])}), ${tag}`,
    `SELECT ${a} AS x, ${p.pick(s.numeric)} * 2 AS y, ${tag} FROM ${m} WHERE ${range} AND ${predicate(p, m, 1)}`,
    `SELECT round(mean(${a})) AS x, count(${a}) AS y FROM ${m} WHERE ${range} GROUP BY time(1h), *`,
  ]);
  const outerAtom = (): string =>
    p.pick([`x > ${p.pick([0, 1, 10, 50])}`, `y < ${p.pick([0, 5, 100])}`, `x > y`, `x + y >= ${p.pick([10, 60])}`, `${tag} = '${p.pick(s.tags[tag]!)}'`, `${tag} =~ /${p.pick(s.tags[tag]!).slice(-2)}$/`, `x != 0`]);
  const where = p.chance(0.7) ? ` WHERE (${outerAtom()} ${p.pick(['OR', 'AND'])} ${outerAtom()})${p.chance(0.4) ? ` OR ${outerAtom()}` : ''}` : '';
  const k = p.r();
  if (k < 0.35) return `SELECT * FROM (${inner})${where}${limits(p)}`;
  if (k < 0.55) return `SELECT x * 10 AS tx, y FROM (${inner})${where}${limits(p)}`;
  const outer = p.pick(['max(x) - min(y) AS r', 'mean(x) AS mx, sum(y)', 'count(x) + count(y) AS n', 'abs(min(x)) AS a', 'last(x) / first(y) AS q']);
  return `SELECT ${outer} FROM (${inner})${where}${p.chance(0.5) ? ` GROUP BY ${tag}` : ''}`;
}

/** SHOW statements with ON, FROM, WITH, WHERE trees on tags, LIMIT and OFFSET together. */
function showStatement(p: Picker): string {
  const m = p.pick(MEASUREMENTS.filter((x) => x !== 'diskio'));
  const on = p.chance(0.4) ? ' ON telemetry' : '';
  const from = p.pick([` FROM ${m}`, ` FROM /${m.slice(0, 2)}/`, ` FROM ${m}, ${p.pick(MEASUREMENTS)}`, '']);
  const tagTree = (): string => {
    const a = tagAtom(p, m);
    return p.chance(0.5) ? a : `(${a} ${p.pick(['OR', 'AND'])} ${tagAtom(p, m)})${p.chance(0.3) ? ` OR ${tagAtom(p, m)}` : ''}`;
  };
  const where = p.chance(0.8) ? ` WHERE ${tagTree()}` : '';
  const lim = `${p.chance(0.4) ? ` LIMIT ${p.pick([1, 2, 3])}` : ''}${p.chance(0.3) ? ` OFFSET ${p.pick([1, 2])}` : ''}`;
  const keyTag = p.pick(Object.keys(TELEMETRY[m]!.tags));
  return p.pick([
    () => `SHOW SERIES${on}${from}${where}${lim}`,
    () => `SHOW TAG KEYS${on}${from}${where}${lim}`,
    () => `SHOW TAG VALUES${on}${from} WITH KEY ${p.pick([`= ${keyTag}`, '=~ /o/', `IN (${keyTag}, host)`, `!= ${keyTag}`, '!~ /^h/'])}${where}${lim}`,
    () => `SHOW MEASUREMENTS${on}${p.pick(['', ` WITH MEASUREMENT =~ /${m.slice(0, 2)}|net/`, ` WITH MEASUREMENT = ${m}`])}${where}${lim}`,
    () => `SHOW ${p.pick(['SERIES', 'MEASUREMENT'])} ${p.pick(['', 'EXACT '])}CARDINALITY${on}${from}${where}`,
    () => `SHOW TAG VALUES ${p.pick(['', 'EXACT '])}CARDINALITY${on}${from} WITH KEY = ${keyTag}${where}`,
    () => `SHOW TAG KEY ${p.pick(['', 'EXACT '])}CARDINALITY${on}${from}${where}`,
  ])();
}

export function randomPredicateQuery(p: Picker): string {
  const m = p.pick(MEASUREMENTS);
  const k = p.r();
  if (k < 0.3) return rawSelect(p, m);
  if (k < 0.6) return aggregateSelect(p, m);
  if (k < 0.8) return nestedSelect(p, m);
  return showStatement(p);
}

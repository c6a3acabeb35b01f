/**
 * Random statements over the shared dataset in the shapes client libraries and the influx CLI
 * send that the other generators leave out: arithmetic between aggregates, regex tag filters
 * with anchors, alternations, classes, flags and escapes, LIMIT/OFFSET/SLIMIT/SOFFSET together
 * with fill, `now()`-relative bounds whose answers do not show the clock (raw rows, selectors,
 * fill(none) windows up to now()), and several statements in one request where one fails.
 */
import { TELEMETRY } from './dataset-shape.js';
import { timeRange, type Picker } from './pick.js';
import { randomShowPaging } from './show-paging.js';

const M = ['cpu', 'mem', 'net', 'events'];

function regexFilter(p: Picker, m: string): string {
  const tags = TELEMETRY[m]!.tags;
  const k = p.pick(Object.keys(tags));
  const vs = tags[k]!;
  const v = p.pick(vs);
  const esc = v.replace(/[-.]/g, '\\$&');
  return p.pick([
    `${k} =~ /^${esc}$/`,
    `${k} =~ /^(${vs.slice(0, 2).map((x) => x.replace(/-/g, '\\-')).join('|')})$/`,
    `${k} =~ /${v.slice(-2)}$/`,
    `${k} !~ /^${v.slice(0, 3)}/`,
    `${k} =~ /(?i)${v.toUpperCase()}/`,
    `${k} =~ /.*/`,
    `${k} =~ //`,
    `${k} !~ /.*/`,
    `${k} =~ /^$/`,
    `${k} !~ /^$/`,
    `${k} =~ /${v}|nosuch/`,
    `${k} =~ /[0-9]$/`,
    `${k} =~ /^[a-z]+\\d*$/`,
    `${k} =~ /\\w+-\\w+/`,
    `(${k} =~ /^${esc}$/ OR ${k} =~ /^${p.pick(vs).replace(/[-.]/g, '\\$&')}$/)`,
  ]);
}

function mathOfAggregates(p: Picker, m: string): string {
  const num = TELEMETRY[m]!.numeric;
  const a = p.pick(num);
  const b = p.pick(num);
  return p.pick([
    `mean(${a}) + max(${b})`,
    `max(${a}) - min(${a})`,
    `sum(${a}) / count(${a})`,
    `(max(${a}) - min(${b})) / 2`,
    `last(${a}) - first(${a})`,
    `count(${a}) * 100 / count(${b})`,
    `mean(${a}) * -1`,
    `-mean(${a})`,
    `max(${a}) % 7`,
    `mean(${a}) AS "avg", max(${a}) - mean(${a}) AS "headroom"`,
    `sum(${a}) + sum(${b}) + 1`,
    `percentile(${a}, 90) - median(${a})`,
    `max(${a}) / min(${b})`,
  ]);
}

function conditions(p: Picker, m: string, time: string): string {
  const c = [time];
  if (p.chance(0.6)) c.push(regexFilter(p, m));
  const all = c.filter(Boolean);
  return all.length ? ` WHERE ${all.join(' AND ')}` : '';
}

function paging(p: Picker): string {
  let s = '';
  if (p.chance(0.2)) s += ' ORDER BY time DESC';
  if (p.chance(0.6)) s += ` LIMIT ${p.pick([1, 2, 3, 10])}`;
  if (p.chance(0.4)) s += ` OFFSET ${p.pick([1, 2, 5])}`;
  if (p.chance(0.4)) s += ` SLIMIT ${p.pick([1, 2, 3])}`;
  if (p.chance(0.3)) s += ` SOFFSET ${p.pick([1, 2, 4])}`;
  return s;
}

/** Statements whose answers are the same whichever clock the server has. */
function nowRelative(p: Picker, m: string): string {
  const shape = TELEMETRY[m]!;
  const f = p.pick(shape.numeric);
  const lower = p.pick(['now() - 10000d', 'now() - 1000w', "'2024-03-09T06:00:00Z'"]);
  const upper = p.pick(['', ' AND time < now()', ' AND time <= now() + 1h', ' AND time < now() - 1d']);
  const time = `time > ${lower}${upper}`;
  const tag = Object.keys(shape.tags)[0]!;
  return p.pick([
    () => `SELECT ${f} FROM ${m}${conditions(p, m, time)} ORDER BY time DESC LIMIT ${p.pick([1, 3])}`,
    () => `SELECT ${p.pick(['first', 'last', 'max', 'min'])}(${f}) FROM ${m}${conditions(p, m, time)} GROUP BY ${tag}`,
    () => `SELECT ${p.pick(['mean', 'max', 'count'])}(${f}) FROM ${m} WHERE time >= '2024-03-09T00:00:00Z' AND time < now() GROUP BY time(${p.pick(['1h', '6h', '1d'])}) fill(none)`,
    () => `SELECT ${p.pick(['mean', 'count', 'sum'])}(${f}) FROM ${m} WHERE time >= '2024-03-09T0${p.pick([0, 3, 6])}:00:00Z' AND time < now()${p.chance(0.5) ? ` GROUP BY ${tag}` : ''}`,
    () => `SELECT * FROM ${m} WHERE time > now() - 10000d AND ${regexFilter(p, m)} LIMIT 3`,
  ])();
}

/** A statement 1.6.7 refuses at run time (the request itself parses). */
export function failing(p: Picker): string {
  return p.pick([
    'SELECT usage_user FROM cpu GROUP BY time(1h)',
    "SELECT mean(usage_user) FROM cpu WHERE time >= '2024-03-09T00:00:00Z' GROUP BY time(1h)",
    'SELECT nosuch(usage_user) FROM cpu',
    'SELECT top(usage_user, 0) FROM cpu',
    'SELECT mean(message) FROM events',
    'SELECT * FROM nosuchdb..cpu',
    'SHOW RETENTION POLICIES ON nosuchdb',
    'SELECT derivative(usage_user, -1s) FROM cpu',
    'SELECT mean(usage_user), usage_user FROM cpu',
    'SELECT percentile(usage_user) FROM cpu',
    'SELECT count(*) FROM nosuchrp.cpu',
    'SELECT holt_winters(usage_user, 1, 1) FROM cpu',
    'SELECT difference(mean(usage_user)) FROM cpu',
  ]);
}

function plain(p: Picker): string {
  const m = p.pick(M);
  const k = p.r();
  if (k < 0.35) {
    const byTime = p.chance(0.7);
    const time = timeRange(p, ...TELEMETRY[m]!.span);
    const tags = Object.keys(TELEMETRY[m]!.tags);
    const by = byTime ? ` GROUP BY time(${p.pick(['10m', '1h', '2h'])})${p.chance(0.4) ? `, ${p.pick([...tags, '*'])}` : ''}` : p.chance(0.4) ? ` GROUP BY ${p.pick(tags)}` : '';
    const fill = byTime && p.chance(0.5) ? ` fill(${p.pick(['null', 'none', '0', 'previous', 'linear'])})` : '';
    return `SELECT ${mathOfAggregates(p, m)} FROM ${m}${conditions(p, m, time)}${by}${fill}${paging(p)}`;
  }
  if (k < 0.6) {
    const time = timeRange(p, ...TELEMETRY[m]!.span);
    const tags = Object.keys(TELEMETRY[m]!.tags);
    const f = p.pick(TELEMETRY[m]!.numeric);
    const call = p.pick([`mean(${f})`, `count(${f})`, `max(${f})`, `last(${f})`, `sum(${f})`]);
    const fill = ` fill(${p.pick(['null', 'none', '0', '-1', 'previous', 'linear'])})`;
    return `SELECT ${call} FROM ${m}${conditions(p, m, time)} GROUP BY time(${p.pick(['15m', '1h', '3h'])}), ${p.pick([...tags, '*'])}${fill}${paging(p)}`;
  }
  if (k < 0.75) {
    const time = p.chance(0.6) ? timeRange(p, ...TELEMETRY[m]!.span) : '';
    return `SELECT ${p.pick(['*', p.pick(TELEMETRY[m]!.fields)])} FROM ${m}${conditions(p, m, time)}${p.chance(0.5) ? ' GROUP BY *' : ''}${paging(p)}`;
  }
  return nowRelative(p, m);
}

/** A statement with bound parameters, as client libraries send them (`params` JSON). */
function withBindings(p: Picker): { q: string; bind: Record<string, unknown> } {
  const m = p.pick(['cpu', 'net']);
  const tags = TELEMETRY[m]!.tags;
  const k = Object.keys(tags)[0]!;
  const f = p.pick(TELEMETRY[m]!.numeric);
  const v = p.pick(tags[k]!);
  return p.pick([
    () => ({ q: `SELECT ${f} FROM ${m} WHERE ${k} = $v AND time >= $t LIMIT 3`, bind: { v, t: '2024-03-09T12:00:00Z' } }),
    () => ({ q: `SELECT mean(${f}) FROM $m WHERE ${k} =~ $r AND time >= $t AND time < $t + $span GROUP BY time($i)`, bind: { m: { identifier: m }, r: { regex: `^${v.slice(0, -1)}` }, t: '2024-03-09T06:00:00Z', span: { duration: p.pick(['3h', '90m']) }, i: { duration: p.pick(['30m', '1h']) } } }),
    () => ({ q: `SELECT count(${f}) FROM ${m} WHERE ${f} > $n AND time < $end`, bind: { n: p.pick([0, 10, 2.5, { integer: 5 }, { number: 5 }]), end: { integer: 1710028800000000000 } } }),
    () => ({ q: `SELECT ${f} FROM ${m} WHERE ${k} = $v LIMIT 1`, bind: { v: p.pick([null, [v], { bogus: v }, {}, { string: 1 }]) } }),
  ])();
}

export interface ClientQuery {
  readonly q: string;
  readonly method?: 'POST';
  readonly params?: Record<string, string>;
  readonly accept?: string;
}

/** One request: a statement, or two or three joined by `;` of which one may fail; some pretty-printed. */
export function randomClientQuery(p: Picker): ClientQuery {
  if (p.chance(0.08)) {
    const b = withBindings(p);
    return { q: b.q, params: { params: JSON.stringify(b.bind) } };
  }
  const n = p.chance(0.25) ? p.pick([2, 3]) : 1;
  const bad = n > 1 && p.chance(0.6) ? Math.floor(p.r() * n) : -1;
  const q = Array.from({ length: n }, (_, i) => (i === bad ? failing(p) : p.chance(0.2) ? randomShowPaging(p) : plain(p))).join('; ');
  const k = p.r();
  const params: Record<string, string> =
    k < 0.15 ? { pretty: 'true' }
      : k < 0.3 ? { epoch: p.pick(['ms', 's', 'u', 'ns']), chunked: 'true', chunk_size: String(p.pick([1, 2, 5])) }
        : k < 0.4 ? { chunked: 'true', pretty: 'true' }
          : {};
  return { q, ...(p.chance(0.3) ? { method: 'POST' as const } : {}), ...(Object.keys(params).length ? { params } : {}), ...(k > 0.9 ? { accept: 'application/csv' } : {}) };
}

/**
 * Random SELECTs built in layers the other generators keep apart: an inner GROUP BY time and
 * tags with fill() under an outer statement with its own time range (narrower, shifted or
 * wider than the inner one), an outer WHERE on tags and on the inner columns, an outer GROUP BY
 * on a subset of the inner tags and outer transforms (derivative, moving_average, difference,
 * cumulative_sum, elapsed) over outer aggregates or over the inner rows; FROM lists and regexes
 * over measurements with disjoint and shared tag keys and fields of other types under
 * LIMIT/OFFSET, SLIMIT/SOFFSET, ORDER BY time DESC and GROUP BY *; and several such statements
 * in one request, often chunked in small chunks with an epoch, so the runner compares the
 * chunked bytes of a batch.
 */
import { TELEMETRY } from './dataset-shape.js';
import { at, type Picker } from './pick.js';

/** Measurements that hold data all day, with their tags and numeric fields. */
const DAY_LONG = ['cpu', 'mem', 'net', 'events'];
const FILLS = ['null', 'none', '0', 'previous', 'linear', '-1'];

interface Range {
  readonly lo: number;
  readonly hi: number;
}

function bounds(r: Range, minutesLo = 0, minutesHi = 0): string {
  return `time >= '${at(r.lo, minutesLo)}' AND time < '${at(r.hi, minutesHi)}'`;
}

function innerRange(p: Picker): Range {
  const lo = Math.floor(p.r() * 16);
  return { lo, hi: Math.min(24, lo + 2 + Math.floor(p.r() * 8)) };
}

/** The outer range: the inner one, inside it, shifted across one of its ends, or around it. */
function outerRange(p: Picker, r: Range): string {
  const k = p.r();
  if (k < 0.3) return bounds(r);
  if (k < 0.55) return bounds({ lo: r.lo + 1, hi: Math.max(r.lo + 2, r.hi - 1) }, p.pick([0, 15, 30]));
  if (k < 0.8) return bounds({ lo: Math.max(0, r.lo - 2), hi: Math.max(r.lo + 1, r.hi - 2) }, 0, p.pick([0, 20]));
  return bounds({ lo: Math.max(0, r.lo - 1), hi: Math.min(24, r.hi + 2) });
}

function tagCondition(p: Picker, m: string): string {
  const tags = TELEMETRY[m]!.tags;
  const key = p.pick(Object.keys(tags));
  const v = p.pick(tags[key]!);
  return p.pick([`${key} = '${v}'`, `${key} != '${v}'`, `${key} =~ /${v.slice(-2)}$/`, `(${key} = '${v}' OR ${key} = '${p.pick(tags[key]!)}')`]);
}

function tagSubset(p: Picker, m: string): string[] {
  const tags = Object.keys(TELEMETRY[m]!.tags);
  return tags.filter(() => p.chance(0.6));
}

/** Inner GROUP BY time and tags with fill, two aliased aggregates; the outer layers read a and b. */
function innerGrouped(p: Picker, m: string, r: Range): { q: string; tags: string[] } {
  const s = TELEMETRY[m]!;
  const [f, g] = [p.pick(s.numeric), p.pick(s.numeric)];
  const agg = (): string => p.pick(['mean', 'max', 'min', 'sum', 'count', 'last', 'first', 'spread']);
  const tags = p.chance(0.2) ? ['*'] : tagSubset(p, m);
  const where = p.chance(0.3) ? ` AND ${tagCondition(p, m)}` : '';
  const group = `GROUP BY time(${p.pick(['10m', '20m', '30m', '1h'])})${tags.length ? `, ${tags.join(', ')}` : ''}`;
  const fill = p.chance(0.7) ? ` fill(${p.pick(FILLS)})` : '';
  const q = `SELECT ${agg()}(${f}) AS a, ${agg()}(${g}) AS b FROM ${m} WHERE ${bounds(r)}${where} ${group}${fill}`;
  return { q, tags: tags[0] === '*' ? Object.keys(s.tags) : tags };
}

function outerCall(p: Picker): string {
  const col = p.pick(['a', 'b']);
  const agg = `${p.pick(['mean', 'max', 'sum', 'count', 'last', 'min'])}(${col})`;
  return p.pick([
    `derivative(${agg}, ${p.pick(['1h', '30m', '1m'])})`,
    `non_negative_derivative(${agg})`,
    `moving_average(${agg}, ${p.pick([2, 3])})`,
    `difference(${agg})`,
    `cumulative_sum(${agg})`,
    `elapsed(${agg}, 1m)`,
    agg,
    `${agg} * 2`,
  ]);
}

/** An outer statement over an inner grouped one. */
function layered(p: Picker): string {
  const m = p.pick(DAY_LONG.filter((x) => x !== 'events'));
  const r = innerRange(p);
  const inner = innerGrouped(p, m, r);
  const conds = [outerRange(p, r)];
  if (p.chance(0.35)) conds.push(tagCondition(p, m));
  if (p.chance(0.3)) conds.push(p.pick([`a > ${p.pick([0, 10, 40])}`, `b < ${p.pick([5, 50, 1e9])}`, 'a >= b', `(a > 20 OR b = 0)`]));
  const where = ` WHERE ${conds.join(' AND ')}`;
  const groupTags = inner.tags.filter(() => p.chance(0.5));
  const k = p.r();
  const order = p.chance(0.2) ? ' ORDER BY time DESC' : '';
  const limit = p.chance(0.2) ? ` LIMIT ${p.pick([1, 2, 4])}${p.chance(0.4) ? ' OFFSET 1' : ''}` : '';
  if (k < 0.3) {
    // Transforms over the inner rows themselves (no outer GROUP BY time).
    const t = p.pick(['derivative(a, 1h)', 'difference(b)', 'moving_average(a, 2)', 'cumulative_sum(b)', 'non_negative_difference(a)', 'elapsed(a, 1m)']);
    const by = groupTags.length ? ` GROUP BY ${groupTags.join(', ')}` : p.chance(0.2) ? ' GROUP BY *' : '';
    return `SELECT ${t}${p.chance(0.3) ? `, ${p.pick(['a', 'b'])}` : ''} FROM (${inner.q})${where}${by}${order}${limit}`;
  }
  const calls = [outerCall(p), ...(p.chance(0.4) ? [outerCall(p)] : [])];
  const by = ` GROUP BY time(${p.pick(['30m', '1h', '2h'])}${p.chance(0.2) ? ', 15m' : ''})${groupTags.length ? `, ${groupTags.join(', ')}` : ''}`;
  const fill = p.chance(0.4) ? ` fill(${p.pick(FILLS)})` : '';
  return `SELECT ${calls.join(', ')} FROM (${inner.q})${where}${by}${fill}${order}${limit}`;
}

/** Several sources at once, paged by series and by rows. */
function multiSource(p: Picker): string {
  const from = p.pick(['cpu, mem', 'mem, net', 'cpu, events', 'net, events', '/^(cpu|net)$/', '/^(mem|events)$/', 'cpu, mem, net', '/e/', 'cpu, sparse']);
  const r = innerRange(p);
  const range = bounds(r, p.pick([0, 5, 30]));
  const cond = p.chance(0.3) ? ` AND ${p.pick(["host = 'server01'", "host != 'server02'", "host =~ /0[12]$/", "iface = 'eth0'", "host = ''"])}` : '';
  const page = `${p.chance(0.5) ? ` LIMIT ${p.pick([1, 2, 3])}` : ''}${p.chance(0.3) ? ` OFFSET ${p.pick([1, 2])}` : ''}${p.chance(0.5) ? ` SLIMIT ${p.pick([1, 2, 3])}` : ''}${p.chance(0.4) ? ` SOFFSET ${p.pick([1, 2, 4])}` : ''}`;
  const order = p.chance(0.4) ? ' ORDER BY time DESC' : '';
  const k = p.r();
  if (k < 0.3) return `SELECT ${p.pick(['*', '/u/', 'host, *', '*::field', 'bytes_recv, used, usage_user, code'])} FROM ${from} WHERE ${range}${cond} GROUP BY ${p.pick(['*', 'host', 'host, iface', 'region'])}${order}${page}`;
  if (k < 0.6) {
    const call = p.pick(['count(*)', 'max(*)', 'mean(/s/)', 'last(*)', 'first(/e/)', 'spread(*)']);
    return `SELECT ${call} FROM ${from} WHERE ${range}${cond} GROUP BY time(${p.pick(['1h', '2h', '3h'])}), ${p.pick(['*', 'host'])}${p.chance(0.4) ? ` fill(${p.pick(FILLS)})` : ''}${order}${page}`;
  }
  const field = p.pick(['used', 'bytes_recv', 'usage_user', 'latency', 'free', 'code']);
  return `SELECT ${p.pick(['mean', 'max', 'count', 'sum', 'last'])}(${field})${p.chance(0.3) ? `, ${p.pick(['min', 'first'])}(${p.pick(['used', 'bytes_sent', 'usage_idle'])})` : ''} FROM ${from} WHERE ${range}${cond} GROUP BY ${p.chance(0.7) ? `time(${p.pick(['30m', '1h', '2h'])}), ` : ''}${p.pick(['*', 'host'])}${order}${page}`;
}

/** A request: one statement, or two or three joined by ';', half of them chunked small, some with an epoch. */
export function randomLayeredRequest(p: Picker): { q: string; params?: Record<string, string> } {
  const one = (): string => (p.chance(0.6) ? layered(p) : multiSource(p));
  const n = p.chance(0.35) ? 2 + Math.floor(p.r() * 2) : 1;
  const q = Array.from({ length: n }, one).join('; ');
  const params: Record<string, string> = {};
  if (p.chance(0.5)) Object.assign(params, { chunked: 'true', chunk_size: String(p.pick([1, 2, 3, 5, 100])) });
  if (p.chance(0.3)) params['epoch'] = p.pick(['ns', 'ms', 's', 'm']);
  return Object.keys(params).length ? { q, params } : { q };
}

const ZONES = ['America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Europe/Berlin'];

/**
 * `--layerstz N`: a layered statement under tz() (the outer one, or both with one zone), its
 * windows of a day or more with offsets, so zone offsets that are not whole hours move the
 * windows the transforms and fills work over. Apart from `--layers` so its seeds stay as recorded.
 */
export function randomLayeredTzRequest(p: Picker): { q: string; params?: Record<string, string> } {
  const zone = `tz('${p.pick(ZONES)}')`;
  let q = layered(p).replace(/GROUP BY time\((\d+[mh])(, 15m)?\)/g, () => `GROUP BY time(${p.pick(['1d', '1d', '12h', '1w'])}${p.pick(['', '', ', 1h', ', -30m', ', 2d'])})`);
  if (p.chance(0.3)) q = q.replace(/\)\) WHERE/, `) ${zone}) WHERE`);
  q = `${q} ${zone}`;
  return p.chance(0.4) ? { q, params: { chunked: 'true', chunk_size: String(p.pick([1, 2, 3])) } } : { q };
}


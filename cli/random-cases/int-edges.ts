/**
 * Integer values at the edges of int64 (±(2^63 - 1), -2^63, 2^62, 2^53 ± 1) and large floats in
 * a database of their own, through every function that adds, subtracts, averages, ranks or
 * differences them: sum() and cumulative_sum() wrap in 1.x (Go int64), mean() and stddev()
 * go through float64, difference() and spread() wrap, derivative() divides the wrapped
 * difference, median() halves in int64, math between an integer field and literals wraps or
 * turns float. Every statement bounds time on both sides.
 */
import type { Picker } from './pick.js';

/** 2024-01-01T00:00:00Z in ns. */
const BASE_NS = 1_704_067_200_000_000_000n;
const STEP_NS = 10_000_000_000n;
const INTS = [
  '9223372036854775807', '9223372036854775806', '-9223372036854775807', '-9223372036854775808', '4611686018427387904',
  '-4611686018427387904', '9007199254740993', '9007199254740992', '-9007199254740993', '1', '0', '-1', '3037000500', '1000000000000000000',
];
const FLOATS = ['1e307', '-1e307', '1.7976931348623157e300', '5e-324', '-0', '0.1', '9007199254740993', '1e-300', '123456789.123456789'];
const RANGE = "time >= '2024-01-01T00:00:00Z' AND time < '2024-01-01T00:02:00Z'";

/** Two series of eight points, ten seconds apart. */
export function intEdgeData(p: Picker): string {
  const lines: string[] = [];
  for (const host of ['a', 'b']) {
    for (let k = 0; k < 8; k++) {
      if (host === 'b' && p.chance(0.25)) continue;
      lines.push(`big,host=${host} i=${p.pick(INTS)}i,x=${p.pick(FLOATS)} ${BASE_NS + BigInt(k) * STEP_NS}`);
    }
  }
  return lines.join('\n') + '\n';
}

function call(p: Picker, f: string): string {
  return p.pick([
    `sum(${f})`, `mean(${f})`, `spread(${f})`, `stddev(${f})`, `median(${f})`, `mode(${f})`, `percentile(${f}, ${p.pick([10, 50, 90])})`,
    `min(${f})`, `max(${f})`, `first(${f})`, `last(${f})`, `count(${f})`, `integral(${f})`, `integral(${f}, 1s)`,
    `sum(${f}) + 1`, `sum(${f}) * 2`, `mean(${f}) - 1`, `max(${f}) - min(${f})`, `-sum(${f})`, `sum(${f}) / 3`, `sum(${f}) % 7`,
    `top(${f}, 2)`, `bottom(${f}, 2)`, `distinct(${f})`,
  ]);
}

function transform(p: Picker, f: string, overAggregate: boolean): string {
  const x = overAggregate ? `${p.pick(['sum', 'max', 'min', 'last', 'mean'])}(${f})` : f;
  return p.pick([
    `difference(${x})`, `non_negative_difference(${x})`, `cumulative_sum(${x})`, `derivative(${x})`, `derivative(${x}, 1s)`,
    `non_negative_derivative(${x}, 10s)`, `moving_average(${x}, ${p.pick([2, 3])})`,
  ]);
}

function raw(p: Picker): string {
  return p.pick([
    'i + 1', 'i - 1', 'i * 2', '-i', 'i / 2', 'i % 3', 'i + i', 'i * i', 'i::float', 'i + 0.5', 'x * 2', 'x + i', 'abs(i)', 'i & 1', 'i | 1', 'i ^ -1',
    'x / 0', 'i / 0', 'i % 0', 'floor(x)', 'round(i)', 'i, x', 'i, host',
  ]);
}

export function randomIntEdgeQuery(p: Picker): { q: string; params?: Record<string, string>; accept?: string } {
  const f = p.pick(['i', 'i', 'x']);
  const by = p.chance(0.4) ? ` GROUP BY ${p.pick(['host', '*'])}` : '';
  const byTime = ` GROUP BY time(${p.pick(['20s', '30s', '1m'])})${p.chance(0.4) ? ', host' : ''}`;
  const k = p.r();
  let q: string;
  if (k < 0.35) q = `SELECT ${call(p, f)} FROM big WHERE ${RANGE}${p.chance(0.5) ? by : byTime}`;
  else if (k < 0.55) q = `SELECT ${transform(p, f, false)} FROM big WHERE ${RANGE}${by}${p.chance(0.3) ? ' ORDER BY time DESC' : ''}`;
  else if (k < 0.7) q = `SELECT ${transform(p, f, true)} FROM big WHERE ${RANGE}${byTime}`;
  else if (k < 0.9) q = `SELECT ${raw(p)} FROM big WHERE ${RANGE}${by}`;
  else q = `SELECT ${p.pick(['sum', 'mean', 'max'])}(${f}) FROM (SELECT ${p.pick(['sum', 'max', 'last'])}(${f}) AS ${f} FROM big WHERE ${RANGE} GROUP BY time(${p.pick(['10s', '30s'])}), host) WHERE ${RANGE}${p.chance(0.5) ? byTime : ''}`;
  const fmt = p.r();
  if (fmt < 0.2) return { q, accept: 'application/csv' };
  if (fmt < 0.3) return { q, params: { epoch: 's' } };
  return { q };
}

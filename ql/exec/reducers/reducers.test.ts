import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../../engine/index.js';
import { reduce } from '../test-support.js';
import type { Pt } from '../test-support.js';
import { createReducer, percentileIndex } from './index.js';
import { UnsupportedTypeError } from '../errors.js';

const F = FieldType.Float;
const I = FieldType.Integer;
const U = FieldType.Unsigned;
const B = FieldType.Boolean;
const S = FieldType.String;
const SEC = 1_000_000_000n;
const s = (n: number): bigint => BigInt(n) * SEC;

/** Points at 1s, 2s, 3s, ... */
function seq(...vals: Pt[1][]): Pt[] {
  return vals.map((v, i) => [s(i + 1), v] as const);
}

const MAX64 = 9223372036854775807n;
const MIN64 = -9223372036854775808n;

interface Case {
  name: string;
  fn: string;
  type: FieldType;
  pts: Pt[];
  args?: Parameters<typeof createReducer>[2];
  want: { time?: bigint; value: unknown }[];
}

// Expected answers from the 1.x source (query/functions.go, call_iterator.go) and influxd 1.6.7.
const cases: Case[] = [
  { name: 'count empty', fn: 'count', type: F, pts: [], want: [] },
  { name: 'count strings', fn: 'count', type: S, pts: seq('a', 'b', 'a'), want: [{ value: 3 }] },
  { name: 'count bools', fn: 'count', type: B, pts: seq(true, false), want: [{ value: 2 }] },
  { name: 'sum float', fn: 'sum', type: F, pts: seq(1.5, 2.25, -0.75), want: [{ value: 3 }] },
  { name: 'sum int stays int', fn: 'sum', type: I, pts: seq(1, 2, 3), want: [{ value: 6 }] },
  { name: 'sum int beyond 2^53 exact', fn: 'sum', type: I, pts: seq(9007199254740993n, 9007199254740995n), want: [{ value: 18014398509481988n }] },
  { name: 'sum int crossing 2^53 exact', fn: 'sum', type: I, pts: seq(9007199254740991, 2, 1), want: [{ value: 9007199254740994n }] },
  { name: 'sum int64 wraps (oracle)', fn: 'sum', type: I, pts: seq(MAX64, 1), want: [{ value: MIN64 }] },
  { name: 'sum int64 wraps back (oracle)', fn: 'sum', type: I, pts: seq(MAX64, 1, MIN64), want: [{ value: 0 }] },
  { name: 'sum unsigned wraps', fn: 'sum', type: U, pts: seq(18446744073709551615n, 2), want: [{ value: 1 }] },
  { name: 'sum negative', fn: 'sum', type: I, pts: seq(-5, -7), want: [{ value: -12 }] },
  { name: 'mean float', fn: 'mean', type: F, pts: seq(1, 2, 4), want: [{ value: 7 / 3 }] },
  { name: 'mean int is float', fn: 'mean', type: I, pts: seq(1, 2), want: [{ value: 1.5 }] },
  { name: 'mean int big (oracle)', fn: 'mean', type: I, pts: seq(9007199254740993n, 9007199254740995n), want: [{ value: 9007199254740994 }] },
  { name: 'mean of wrapped int sum (oracle)', fn: 'mean', type: I, pts: seq(MAX64, 1, MIN64), want: [{ value: 0 }] },
  { name: 'mean single', fn: 'mean', type: F, pts: seq(2.5), want: [{ value: 2.5 }] },
  { name: 'min earliest among equal', fn: 'min', type: F, pts: seq(3, 1, 2, 1), want: [{ time: s(2), value: 1 }] },
  { name: 'max earliest among equal (oracle)', fn: 'max', type: F, pts: seq(5, 9, 9, 1, 5, 9), want: [{ time: s(2), value: 9 }] },
  { name: 'max int big', fn: 'max', type: I, pts: seq(9007199254740993n, 9007199254740995n, 1), want: [{ time: s(2), value: 9007199254740995n }] },
  { name: 'min negative ints', fn: 'min', type: I, pts: seq(-1, -9, 4), want: [{ time: s(2), value: -9 }] },
  { name: 'max bool (oracle)', fn: 'max', type: B, pts: seq(true, false), want: [{ time: s(1), value: true }] },
  { name: 'min bool (oracle)', fn: 'min', type: B, pts: seq(true, false), want: [{ time: s(2), value: false }] },
  { name: 'min all equal', fn: 'min', type: F, pts: seq(2, 2, 2), want: [{ time: s(1), value: 2 }] },
  { name: 'first string (oracle)', fn: 'first', type: S, pts: seq('x', 'y'), want: [{ time: s(1), value: 'x' }] },
  { name: 'last bool (oracle)', fn: 'last', type: B, pts: seq(true, false), want: [{ time: s(2), value: false }] },
  { name: 'first empty', fn: 'first', type: F, pts: [], want: [] },
  { name: 'first equal times: larger value', fn: 'first', type: F, pts: [[s(1), 1], [s(1), 5], [s(2), 9]], want: [{ time: s(1), value: 5 }] },
  { name: 'first equal times bool: false', fn: 'first', type: B, pts: [[s(1), true], [s(1), false]], want: [{ time: s(1), value: false }] },
  { name: 'last equal times bool: true', fn: 'last', type: B, pts: [[s(1), false], [s(1), true]], want: [{ time: s(1), value: true }] },
  { name: 'spread float single', fn: 'spread', type: F, pts: seq(2.5), want: [{ value: 0 }] },
  { name: 'spread int stays int', fn: 'spread', type: I, pts: seq(5, -3, 2), want: [{ value: 8 }] },
  { name: 'spread int64 wraps (oracle)', fn: 'spread', type: I, pts: seq(MAX64, 1, MIN64), want: [{ value: -1 }] },
  { name: 'spread big (oracle)', fn: 'spread', type: I, pts: seq(9007199254740993n, 9007199254740995n), want: [{ value: 2 }] },
  { name: 'stddev sample n-1', fn: 'stddev', type: F, pts: seq(2, 4, 4, 4, 5, 5, 7, 9), want: [{ value: Math.sqrt(32 / 7) }] },
  { name: 'stddev single is NaN (the oracle prints null)', fn: 'stddev', type: F, pts: seq(2.5), want: [{ value: NaN }] },
  { name: 'stddev all equal', fn: 'stddev', type: I, pts: seq(3, 3, 3), want: [{ value: 0 }] },
  { name: 'stddev big ints (oracle)', fn: 'stddev', type: I, pts: seq(9007199254740993n, 9007199254740995n), want: [{ value: 2.8284271247461903 }] },
  { name: 'median odd', fn: 'median', type: F, pts: seq(5, 1, 3), want: [{ value: 3 }] },
  { name: 'median even (oracle)', fn: 'median', type: F, pts: seq(5, 9, 9, 1, 5, 9), want: [{ value: 7 }] },
  { name: 'median int is float', fn: 'median', type: I, pts: seq(1, 2), want: [{ value: 1.5 }] },
  { name: 'median single int', fn: 'median', type: I, pts: seq(7), want: [{ value: 7 }] },
  { name: 'median big ints (oracle)', fn: 'median', type: I, pts: seq(9007199254740993n, 9007199254740995n), want: [{ value: 9007199254740992 }] },
  { name: 'percentile 50 of 6 (oracle)', fn: 'percentile', type: F, pts: seq(5, 9, 9, 1, 5, 9), args: { percentile: 50 }, want: [{ time: s(5), value: 5 }] },
  { name: 'percentile 0 is no row (null)', fn: 'percentile', type: F, pts: seq(1, 2, 3), args: { percentile: 0 }, want: [] },
  { name: 'percentile 100 is max', fn: 'percentile', type: I, pts: seq(4, 8, 2), args: { percentile: 100 }, want: [{ time: s(2), value: 8 }] },
  { name: 'percentile 50.5 of 10', fn: 'percentile', type: F, pts: seq(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), args: { percentile: 50.5 }, want: [{ time: s(6), value: 5 }] },
  { name: 'percentile empty', fn: 'percentile', type: F, pts: [], args: { percentile: 50 }, want: [] },
  { name: 'mode tie → oracle picks 5', fn: 'mode', type: I, pts: seq(5, 3, 5, 1, 3), want: [{ value: 5 }] },
  { name: 'mode (oracle)', fn: 'mode', type: F, pts: seq(5, 9, 9, 1, 5, 9), want: [{ value: 9 }] },
  { name: 'mode all distinct → smallest', fn: 'mode', type: F, pts: seq(3, 1, 2), want: [{ value: 1 }] },
  { name: 'mode strings (oracle)', fn: 'mode', type: S, pts: seq('x', 'y'), want: [{ value: 'x' }] },
  { name: 'mode bools tie → true (oracle)', fn: 'mode', type: B, pts: seq(true, false), want: [{ value: true }] },
  { name: 'mode bools false wins', fn: 'mode', type: B, pts: seq(true, false, false), want: [{ value: false }] },
  { name: 'distinct first-occurrence order (oracle)', fn: 'distinct', type: I, pts: seq(5, 3, 5, 1, 3), want: [{ time: s(1), value: 5 }, { time: s(2), value: 3 }, { time: s(4), value: 1 }] },
  { name: 'distinct bools (oracle)', fn: 'distinct', type: B, pts: seq(true, false, true), want: [{ time: s(1), value: true }, { time: s(2), value: false }] },
  { name: 'count distinct (oracle)', fn: 'count_distinct', type: F, pts: seq(5, 9, 9, 1, 5, 9), want: [{ value: 3 }] },
  { name: 'top ties earliest (oracle)', fn: 'top', type: F, pts: seq(5, 9, 9, 1, 5, 9), args: { n: 2 }, want: [{ time: s(2), value: 9 }, { time: s(3), value: 9 }] },
  { name: 'bottom by time (oracle)', fn: 'bottom', type: F, pts: seq(5, 9, 9, 1, 5, 9), args: { n: 3 }, want: [{ time: s(1), value: 5 }, { time: s(4), value: 1 }, { time: s(5), value: 5 }] },
  { name: 'top n larger than input', fn: 'top', type: I, pts: seq(1, 2), args: { n: 5 }, want: [{ time: s(1), value: 1 }, { time: s(2), value: 2 }] },
  { name: 'top big ints', fn: 'top', type: I, pts: seq(9007199254740995n, 1, 9007199254740993n), args: { n: 1 }, want: [{ time: s(1), value: 9007199254740995n }] },
  { name: 'sample all when n >= count (oracle)', fn: 'sample', type: S, pts: seq('a', 'b'), args: { n: 10 }, want: [{ time: s(1), value: 'a' }, { time: s(2), value: 'b' }] },
];

describe('reducers: 1.x answers', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(reduce(c.fn, c.type, c.pts, c.args), c.want);
    });
  }
});

describe('reducers: type errors as 1.x', () => {
  const errs: [string, FieldType, string][] = [
    ['mean', B, 'unsupported mean iterator type: *query.booleanInterruptIterator'],
    ['sum', S, 'unsupported sum iterator type: *query.stringInterruptIterator'],
    ['max', S, 'unsupported max iterator type: *query.stringInterruptIterator'],
    ['spread', B, 'unsupported spread iterator type: *query.booleanInterruptIterator'],
    ['median', S, 'unsupported median iterator type: *query.stringInterruptIterator'],
    ['top', S, 'unsupported top iterator type: *query.stringInterruptIterator'],
    ['bottom', B, 'unsupported bottom iterator type: *query.booleanInterruptIterator'],
    ['percentile', S, 'unsupported percentile iterator type: *query.stringInterruptIterator'],
    ['stddev', B, 'unsupported stddev iterator type: *query.booleanInterruptIterator'],
    ['integral', S, 'unsupported integral iterator type: *query.stringInterruptIterator'],
  ];
  for (const [fn, t, msg] of errs) {
    it(`${fn} rejects type ${t}`, () => {
      assert.throws(() => createReducer(fn, t), (e: unknown) => e instanceof UnsupportedTypeError && e.message === msg && e.status === 400);
    });
  }
  it('unknown function', () => {
    assert.throws(() => createReducer('foo', F), /undefined function foo\(\)/);
  });
});

describe('percentile index', () => {
  it('matches floor(len*N/100 + 0.5) - 1', () => {
    assert.equal(percentileIndex(6, 50), 2);
    assert.equal(percentileIndex(10, 0), -1);
    assert.equal(percentileIndex(10, 100), 9);
    assert.equal(percentileIndex(10, 95), 9);
    assert.equal(percentileIndex(3, 10), -1);
  });
});

describe('sample', () => {
  it('keeps n points, in time order, deterministic', () => {
    const pts = seq(...Array.from({ length: 100 }, (_, i) => i));
    const a = reduce('sample', I, pts, { n: 5 });
    const b = reduce('sample', I, pts, { n: 5 }, [17, 50]);
    assert.equal(a.length, 5);
    assert.deepEqual(a, b);
    for (let i = 1; i < a.length; i++) assert.ok((a[i]?.time ?? 0n) > (a[i - 1]?.time ?? 0n));
    for (const r of a) assert.equal(r.time, s((r.value as number) + 1));
  });
});

describe('stats fast path', () => {
  it('count/sum/min/max from stats', () => {
    for (const fn of ['count', 'sum', 'min', 'max'] as const) {
      const r = createReducer(fn, I);
      if (!('addStats' in r)) assert.fail(`${fn} has no addStats`);
      const sr = r as unknown as { addStats(s: object): void; result(): unknown };
      sr.addStats({ count: 2, sum: 5, min: 1, minTime: s(3), max: 4, maxTime: s(4) });
      sr.addStats({ count: 1, sum: 4, min: 4, minTime: s(9), max: 4, maxTime: s(9) });
      const want = { count: [{ value: 3 }], sum: [{ value: 9 }], min: [{ time: s(3), value: 1 }], max: [{ time: s(4), value: 4 }] }[fn];
      assert.deepEqual(sr.result(), want);
    }
  });
});

describe('stddev reduces in time order across series (1.x merge order)', () => {
  /** 1.x's FloatStddevReduceSlice over points in the order given. */
  function goStddev(xs: readonly number[]): number {
    let mean = 0;
    let n = 0;
    for (const x of xs) mean += (x - mean) / ++n;
    let v = 0;
    for (const x of xs) v += (x - mean) ** 2;
    return Math.sqrt(v / (n - 1));
  }

  it('two series added one after the other give the interleaved answer, bit for bit', () => {
    // Values of the oracle-recorded fixtures/queries/31-stddev-merge-order.test window.
    const a = Array.from({ length: 120 }, (_, i) => 90 + ((i * 10) % 70) / 7);
    const pts = (xs: number[]): Pt[] => xs.map((v, i) => [s(10 * i), v] as const);
    const got = reduce('stddev', F, [...pts(a), ...pts(a)], {}, [a.length])[0]!.value as number;
    const interleaved = a.flatMap((x) => [x, x]);
    assert.notEqual(goStddev(interleaved), goStddev([...a, ...a]), 'the data must tell the two orders apart');
    assert.equal(got, goStddev(interleaved));
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType } from '../../../engine/index.js';
import { column, reduce } from '../test-support.js';
import type { Pt } from '../test-support.js';
import { canonInt, compareScalar } from '../value.js';
import type { Scalar } from '../value.js';
import { windowSpec } from '../window.js';
import { createReducer } from './index.js';
import type { BatchStats, StatsReducer } from './index.js';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

const valueArb: Record<FieldType, fc.Arbitrary<Scalar>> = {
  [FieldType.Float]: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
  [FieldType.Integer]: fc.oneof(fc.integer({ min: -50, max: 50 }), fc.bigInt({ min: I64_MIN, max: I64_MAX }).map(canonInt)),
  [FieldType.Unsigned]: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(canonInt)),
  [FieldType.Boolean]: fc.boolean(),
  [FieldType.String]: fc.constantFrom('a', 'b', 'c', 'zz', ''),
};

/** A time-ordered series of `type` plus batch cut points. */
function seriesArb(type: FieldType): fc.Arbitrary<{ pts: Pt[]; cuts: number[] }> {
  return fc
    .record({
      start: fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
      gaps: fc.array(fc.integer({ min: 1, max: 1e12 }), { maxLength: 40 }),
      values: fc.array(valueArb[type], { minLength: 41, maxLength: 41 }),
      cuts: fc.array(fc.integer({ min: 0, max: 41 }), { maxLength: 6 }),
    })
    .map(({ start, gaps, values, cuts }) => {
      const pts: Pt[] = [];
      let t = start;
      for (let i = 0; i <= gaps.length; i++) {
        pts.push([t, values[i] ?? null]);
        t += BigInt(gaps[i] ?? 1);
      }
      return { pts, cuts: [...new Set(cuts)].sort((a, b) => a - b) };
    });
}

const ALL = [FieldType.Float, FieldType.Integer, FieldType.Unsigned, FieldType.Boolean, FieldType.String];
const NUM = [FieldType.Float, FieldType.Integer, FieldType.Unsigned];
const FUNCS: [string, FieldType[], Parameters<typeof createReducer>[2]?][] = [
  ['count', ALL], ['first', ALL], ['last', ALL], ['mode', ALL], ['distinct', ALL], ['count_distinct', ALL], ['sample', ALL, { n: 3 }],
  ['min', [...NUM, FieldType.Boolean]], ['max', [...NUM, FieldType.Boolean]],
  ['sum', NUM], ['mean', NUM], ['median', NUM], ['spread', NUM], ['stddev', NUM],
  ['percentile', NUM, { percentile: 37.5 }], ['top', NUM, { n: 3 }], ['bottom', NUM, { n: 3 }],
  ['integral', NUM], ['integral', NUM, { integral: { window: windowSpec(3_000_000_000_000n, 7n) } }],
];

describe('reducers: same result whatever the batch cuts', () => {
  for (const [fn, types, args] of FUNCS) {
    for (const type of types) {
      it(`${fn}${args?.integral?.window ? ' (windowed)' : ''} on type ${type}`, () => {
        fc.assert(
          fc.property(seriesArb(type), ({ pts, cuts }) => {
            assert.deepStrictEqual(reduce(fn, type, pts, args, cuts), reduce(fn, type, pts, args));
          }),
          { numRuns: 60 },
        );
      });
    }
  }
});

describe('reducers: oracles for exact integer arithmetic', () => {
  it('integer sum is the int64-wrapped exact sum; spread is wrapped max - min', () => {
    fc.assert(
      fc.property(seriesArb(FieldType.Integer), ({ pts, cuts }) => {
        const exact = pts.reduce((s, p) => s + BigInt(p[1] as number | bigint), 0n);
        assert.deepStrictEqual(reduce('sum', FieldType.Integer, pts, {}, cuts), [{ value: canonInt(BigInt.asIntN(64, exact)) }]);
        const vs = pts.map((p) => BigInt(p[1] as number | bigint));
        const spread = vs.reduce((a, b) => (b > a ? b : a)) - vs.reduce((a, b) => (b < a ? b : a));
        assert.deepStrictEqual(reduce('spread', FieldType.Integer, pts, {}, cuts), [{ value: canonInt(BigInt.asIntN(64, spread)) }]);
      }),
      { numRuns: 200 },
    );
  });
});

/** The statistics an engine would keep for a batch. */
function statsOf(pts: readonly Pt[]): BatchStats {
  let min = pts[0] as Pt;
  let max = pts[0] as Pt;
  let sum = 0n;
  for (const p of pts) {
    if (compareScalar(p[1], min[1]) < 0) min = p;
    if (compareScalar(p[1], max[1]) > 0) max = p;
    sum += BigInt(p[1] as number | bigint);
  }
  return { count: pts.length, sum: canonInt(BigInt.asIntN(64, sum)), min: min[1], minTime: BigInt(min[0]), max: max[1], maxTime: BigInt(max[0]) };
}

describe('reducers: stats fast path equals scanning', () => {
  for (const fn of ['count', 'sum', 'min', 'max']) {
    it(fn, () => {
      fc.assert(
        fc.property(seriesArb(FieldType.Integer), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), ({ pts, cuts }, useStats) => {
          const r = createReducer(fn, FieldType.Integer) as StatsReducer;
          const bounds = [0, ...cuts.filter((c) => c > 0 && c < pts.length), pts.length];
          for (let b = 0; b + 1 < bounds.length; b++) {
            const slice = pts.slice(bounds[b], bounds[b + 1]);
            if (slice.length === 0) continue;
            if (useStats[b % 8]) {
              r.addStats(statsOf(slice));
              continue;
            }
            const base = BigInt((slice[0] as Pt)[0]);
            const offs = Float64Array.from(slice.map((p) => Number(BigInt(p[0]) - base)));
            r.add(base, offs, column(FieldType.Integer, slice.map((p) => p[1])), 0, slice.length);
          }
          assert.deepStrictEqual(r.result(), reduce(fn, FieldType.Integer, pts));
        }),
        { numRuns: 150 },
      );
    });
  }
});

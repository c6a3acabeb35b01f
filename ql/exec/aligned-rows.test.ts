/** alignedRows equals joining the series by time whenever it answers, and answers whenever they line up. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Cell } from '../result.js';
import { alignedRows } from './aligned-rows.js';
import type { Scalar, TimedValue } from './value.js';

/** The general path of assembleRows: union of the times, ascending; each column looked up by time. */
function joinedByTime(series: readonly (readonly TimedValue[])[], columnSeries: readonly number[]): Cell[][] {
  const maps = series.map((s) => new Map(s.map((x) => [x.time, x.value])));
  const times = [...new Set(series.flatMap((s) => s.map((x) => x.time)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return times.map((t) => [t, ...columnSeries.map((c) => maps[c]!.get(t) ?? null)]);
}

const scalarArb: fc.Arbitrary<Scalar> = fc.oneof(fc.constant(null), fc.double({ noNaN: true }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.string(), fc.boolean());
const timesArb = fc.uniqueArray(fc.bigInt({ min: 0n, max: 10_000n }), { maxLength: 12 }).map((ts) => ts.sort((a, b) => (a < b ? -1 : 1)));

const caseArb = fc
  .record({
    times: timesArb,
    nSeries: fc.integer({ min: 1, max: 4 }),
    descending: fc.boolean(),
    // Break the alignment of one series now and then: drop, duplicate or shift a time.
    breakage: fc.option(fc.record({ series: fc.nat(), at: fc.nat(), kind: fc.constantFrom('drop', 'duplicate', 'shift') }), { freq: 3 }),
    nColumns: fc.integer({ min: 1, max: 5 }),
    seed: fc.array(scalarArb, { minLength: 60, maxLength: 60 }),
    picks: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
  })
  .map(({ times, nSeries, descending, breakage, nColumns, seed, picks }) => {
    const ordered = descending ? [...times].reverse() : times;
    const series: TimedValue[][] = Array.from({ length: nSeries }, (_, j) => ordered.map((time, k) => ({ time, value: seed[(j * 13 + k) % seed.length]! })));
    if (breakage && times.length > 0) {
      const s = series[breakage.series % nSeries]!;
      const at = breakage.at % s.length;
      if (breakage.kind === 'drop') s.splice(at, 1);
      else if (breakage.kind === 'duplicate') s.splice(at, 0, { ...s[at]! });
      else s[at] = { time: s[at]!.time + 20_000n, value: s[at]!.value };
    }
    const columnSeries = picks.slice(0, nColumns).map((p) => p % nSeries);
    return { series, columnSeries, aligned: !breakage || times.length === 0 };
  });

test('alignedRows: equal to the join by time whenever it answers; answers for lined-up series', () => {
  fc.assert(
    fc.property(caseArb, ({ series, columnSeries, aligned }) => {
      const rows = alignedRows(series, columnSeries);
      if (aligned) assert.ok(rows !== undefined, 'lined-up series must take the shortcut');
      if (rows !== undefined) assert.deepEqual(rows, joinedByTime(series, columnSeries));
    }),
    { numRuns: 3000 },
  );
});

test('alignedRows: series of different lengths, duplicate times or differing times are left to the join', () => {
  const tv = (time: bigint, value: Scalar = 1): TimedValue => ({ time, value });
  assert.equal(alignedRows([[tv(1n), tv(2n)], [tv(1n)]], [0, 1]), undefined);
  assert.equal(alignedRows([[tv(1n), tv(1n)]], [0]), undefined);
  assert.equal(alignedRows([[tv(1n), tv(2n)], [tv(1n), tv(3n)]], [0, 1]), undefined);
  assert.deepEqual(alignedRows([[tv(2n, 'b'), tv(1n, 'a')]], [0, 0]), [
    [1n, 'a', 'a'],
    [2n, 'b', 'b'],
  ]);
  assert.deepEqual(alignedRows([[]], [0]), []);
});

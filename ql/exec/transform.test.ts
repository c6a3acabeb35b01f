import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import { createTransform, derivativeUnit, lookbackIntervals, runTransform } from './transform.js';
import { fillSeries } from './fill.js';
import { windowSpec } from './window.js';
import type { TransformArgs, TransformName } from './transform.js';
import { UnsupportedTypeError } from './errors.js';
import type { Scalar, TimedValue } from './value.js';

const S = 1_000_000_000n;
const pts = (...r: [number, Scalar][]): TimedValue[] => r.map(([t, value]) => ({ time: BigInt(t) * S, value }));
const run = (name: TransformName, type: FieldType, input: TimedValue[], args?: TransformArgs): [number, Scalar][] =>
  runTransform(createTransform(name, type, args), input).map((r) => [Number(r.time / S), r.value]);

// influxd 1.6.7 data sets: `ig` (float) and `ii` (integer).
const ig = pts([0, 1], [15, 3], [25, 2], [70, 5], [75, 5]);
const ii = pts([0, 1], [15, 3], [25, 2], [70, 5]);

describe('transforms (oracle answers)', () => {
  it('derivative, default unit 1s', () => {
    assert.deepEqual(run('derivative', FieldType.Float, ig), [[15, 2 / 15], [25, -0.1], [70, 3 / 45], [75, 0]]);
  });
  it('derivative ORDER BY time DESC', () => {
    const out = run('derivative', FieldType.Float, [...ig].reverse(), { descending: true });
    assert.deepEqual(out, [[70, 0], [25, -0.06666666666666667], [15, 0.1], [0, -0.13333333333333333]]);
  });
  it('non_negative_derivative(v, 10s)', () => {
    assert.deepEqual(run('non_negative_derivative', FieldType.Float, ig, { unitNs: 10n * S }), [[15, 1.3333333333333333], [70, 0.6666666666666666], [75, 0]]);
  });
  it('derivative of integers is float, int64 difference first', () => {
    assert.deepEqual(run('derivative', FieldType.Integer, ii), [[15, 2 / 15], [25, -0.1], [70, 3 / 45]]);
    const big = pts([0, 9223372036854775807n], [1, -9223372036854775808n]);
    assert.deepEqual(run('derivative', FieldType.Integer, big), [[1, 1]]); // wraps like Go
  });
  it('derivative unit: argument, else GROUP BY interval, else 1s', () => {
    assert.equal(derivativeUnit(5n), 5n);
    assert.equal(derivativeUnit(undefined, 60n * S), 60n * S);
    assert.equal(derivativeUnit(), S);
  });
  it('difference and non_negative_difference keep the integer type', () => {
    assert.deepEqual(run('difference', FieldType.Integer, ii), [[15, 2], [25, -1], [70, 3]]);
    assert.deepEqual(run('non_negative_difference', FieldType.Integer, ii), [[15, 2], [70, 3]]);
    assert.deepEqual(run('difference', FieldType.Float, ig), [[15, 2], [25, -1], [70, 3], [75, 0]]);
  });
  it('difference beyond 2^53 is exact', () => {
    assert.deepEqual(run('difference', FieldType.Integer, pts([0, 9007199254740993n], [1, 9007199254740996n], [2, 1])), [[1, 3], [2, -9007199254740995n]]);
  });
  it('same-time points are ignored by derivative/difference', () => {
    assert.deepEqual(run('difference', FieldType.Float, pts([0, 1], [0, 7], [1, 4])), [[1, 3]]);
  });
  it('elapsed truncates toward zero, every type, default 1ns', () => {
    assert.deepEqual(run('elapsed', FieldType.Integer, ii, { unitNs: 10n * S }), [[15, 1], [25, 1], [70, 4]]);
    assert.deepEqual(run('elapsed', FieldType.Integer, [...ii].reverse(), { unitNs: 60n * S, descending: true }), [[25, 0], [15, 0], [0, 0]]);
    assert.deepEqual(run('elapsed', FieldType.String, pts([1, 'x'], [2, 'y'])), [[2, 1_000_000_000]]);
  });
  it('cumulative_sum and moving_average', () => {
    assert.deepEqual(run('cumulative_sum', FieldType.Integer, ii), [[0, 1], [15, 4], [25, 6], [70, 11]]);
    assert.deepEqual(run('moving_average', FieldType.Integer, ii, { n: 2 }), [[15, 2], [25, 2.5], [70, 3.5]]);
    assert.deepEqual(run('moving_average', FieldType.Float, ig, { n: 3 }), [[25, 2], [70, 10 / 3], [75, 4]]);
  });
  it('cumulative_sum wraps int64', () => {
    assert.deepEqual(run('cumulative_sum', FieldType.Integer, pts([0, 9223372036854775807n], [1, 1])), [[0, 9223372036854775807n], [1, -9223372036854775808n]]);
  });
  it('null inputs (empty windows) are skipped', () => {
    assert.deepEqual(run('difference', FieldType.Float, pts([0, 1], [10, null], [20, 4])), [[20, 3]]);
  });
  it('empty and single-point input', () => {
    assert.deepEqual(run('derivative', FieldType.Float, []), []);
    assert.deepEqual(run('difference', FieldType.Float, pts([0, 1])), []);
    assert.deepEqual(run('cumulative_sum', FieldType.Float, pts([0, 1])), [[0, 1]]);
  });
  it('type errors as 1.x', () => {
    const cases: [TransformName, FieldType, string][] = [
      ['derivative', FieldType.String, 'unsupported derivative iterator type: *query.stringInterruptIterator'],
      ['non_negative_derivative', FieldType.Boolean, 'unsupported derivative iterator type: *query.booleanInterruptIterator'],
      ['non_negative_difference', FieldType.String, 'unsupported difference iterator type: *query.stringInterruptIterator'],
      ['moving_average', FieldType.String, 'unsupported moving average iterator type: *query.stringInterruptIterator'],
      ['cumulative_sum', FieldType.Boolean, 'unsupported cumulative sum iterator type: *query.booleanInterruptIterator'],
    ];
    for (const [n, t, msg] of cases) assert.throws(() => createTransform(n, t), (e: unknown) => e instanceof UnsupportedTypeError && e.message === msg);
  });
});

describe('transforms over GROUP BY time aggregates: look-back windows (1.6.7)', () => {
  it('intervals read before the lower bound', () => {
    assert.equal(lookbackIntervals('derivative'), 1);
    assert.equal(lookbackIntervals('non_negative_difference'), 1);
    assert.equal(lookbackIntervals('elapsed'), 1);
    assert.equal(lookbackIntervals('moving_average'), 1);
    assert.equal(lookbackIntervals('cumulative_sum'), 0);
  });
  it('upstream moving_average(mean(value), 2) … GROUP BY time(2s) fill(0)', () => {
    // cpu value=10 @18:47:00, 15 @:01, 30 @:04, 35 @:05; bounds 18:47:00 .. 18:47:05 inclusive.
    const t0 = 1278010020n * S;
    const iv = 2n * S;
    const start = t0 - iv * BigInt(lookbackIntervals('moving_average'));
    const means = [{ time: t0, value: 12.5 }, { time: t0 + 4n * S, value: 32.5 }];
    const filled = fillSeries(means, { mode: 'number', value: 0, valueType: FieldType.Float, window: windowSpec(iv), startNs: start, endNs: t0 + 5n * S });
    const out = runTransform(createTransform('moving_average', FieldType.Float, { n: 2 }), filled);
    assert.deepEqual(out.map((r) => [Number((r.time - t0) / S), r.value]), [[0, 6.25], [2, 6.25], [4, 16.25]]);
  });
});

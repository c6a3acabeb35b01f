import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../../engine/index.js';
import { MeanReducer } from './mean.js';
import { PENDING_MAX, SumReducer } from './sum.js';
import type { PartialClock } from './partials.js';

const col = (values: number[]) => ({ type: FieldType.Float, values: Float64Array.from(values) }) as const;

/** Feed three series (one shard) the way select-agg does: the clock names the series. */
function feed(r: SumReducer | MeanReducer, clock: PartialClock, series: number[][]): void {
  series.forEach((values, i) => {
    clock.series = i;
    r.add(0n, new Float64Array(values.length), col(values), 0, values.length);
  });
}

// SELECT sum(v), mean(v) FROM pu on 1.6.7, with these three series: 17.02 and 2.8366666666666664
// (a plain running sum gives 17.019999999999996 and 2.836666666666666).
const SERIES = [[0.74, 1.26, 9.11], [0.37, 3.71], [1.83]];

describe('sum() and mean() over several series merge per-series partials as 1.x does', () => {
  it('sum adds each series total', () => {
    const clock = { series: 0, shard: 0n };
    const r = new SumReducer(FieldType.Float, clock);
    feed(r, clock, SERIES);
    assert.equal(r.result()[0]!.value, 17.02);
  });

  it('mean merges the series means weighted by their counts', () => {
    const clock = { series: 0, shard: 0n };
    const r = new MeanReducer(FieldType.Float, clock);
    feed(r, clock, SERIES);
    assert.equal(r.result()[0]!.value, 2.8366666666666664);
    assert.deepEqual(r.result(), r.result(), 'result() leaves the state as it is');
  });

  it('without a clock it is the plain running sum', () => {
    const r = new SumReducer(FieldType.Float);
    for (const s of SERIES) r.add(0n, new Float64Array(s.length), col(s), 0, s.length);
    assert.equal(r.result()[0]!.value, 17.019999999999996);
  });

  it('an empty reducer has no row, and integer means stay exact per partial', () => {
    const clock = { series: 0, shard: 0n };
    assert.deepEqual(new MeanReducer(FieldType.Float, clock).result(), []);
    const m = new MeanReducer(FieldType.Integer, clock);
    clock.series = 0;
    m.add(0n, new Float64Array(2), { type: FieldType.Integer, values: BigInt64Array.of(1n, 2n) }, 0, 2);
    clock.series = 1;
    m.add(0n, new Float64Array(1), { type: FieldType.Integer, values: BigInt64Array.of(6n) }, 0, 1);
    assert.equal(m.result()[0]!.value, 3);
  });
});

describe('under ORDER BY time DESC a partial adds its points newest first, as 1.x reads them', () => {
  // 1 + 1e16 rounds to 1e16, so oldest first the sum is 0; newest first it is 1.
  const batches = [[1, 1e16], [-1e16]];
  const run = (r: SumReducer | MeanReducer, clock: PartialClock, newSeries: number[] = []): void => {
    for (const b of batches) r.add(0n, new Float64Array(b.length), col(b), 0, b.length);
    clock.series = 1;
    if (newSeries.length > 0) r.add(0n, new Float64Array(newSeries.length), col(newSeries), 0, newSeries.length);
  };

  it('sum', () => {
    const asc = { series: 0, shard: 0n };
    const a = new SumReducer(FieldType.Float, asc);
    run(a, asc);
    assert.equal(a.result()[0]!.value, 0);
    const desc = { series: 0, shard: 0n };
    const d = new SumReducer(FieldType.Float, desc, true);
    run(d, desc, [2]);
    assert.equal(d.result()[0]!.value, 3, 'the closed partial was added newest first too');
  });

  it('mean', () => {
    const clock = { series: 0, shard: 0n };
    const d = new MeanReducer(FieldType.Float, clock, true);
    run(d, clock);
    assert.equal(d.result()[0]!.value, 1 / 3);
  });

  it('a partial longer than PENDING_MAX keeps at most that many values and still sums them all', () => {
    const clock = { series: 0, shard: 0n };
    const d = new SumReducer(FieldType.Float, clock, true);
    const batch = new Float64Array(1 << 16).fill(0.5);
    const batches = PENDING_MAX / batch.length + 3;
    for (let i = 0; i < batches; i++) d.add(0n, batch, { type: FieldType.Float, values: batch }, 0, batch.length);
    const kept = (d as unknown as { pending: Float64Array[] }).pending.reduce((n, v) => n + v.length, 0);
    assert.ok(kept <= PENDING_MAX, `${kept} values kept`);
    assert.equal(d.result()[0]!.value, batches * batch.length * 0.5);
    // Within the bound the order is newest first, as above.
    const small = new SumReducer(FieldType.Float, { series: 0, shard: 0n }, true);
    for (const b of [[1, 1e16], [-1e16]]) small.add(0n, new Float64Array(b.length), col(b), 0, b.length);
    assert.equal(small.result()[0]!.value, 1);
  });
});

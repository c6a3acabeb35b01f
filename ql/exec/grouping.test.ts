import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import { createReducer } from './reducers/index.js';
import { WindowedAggregator, windowRows } from './grouping.js';
import { column } from './test-support.js';
import { windowSpec } from './window.js';

const S = 1_000_000_000n;
const spec = windowSpec(10n * S);

describe('WindowedAggregator', () => {
  it('groups batch runs by window, across batches', () => {
    const agg = new WindowedAggregator(spec, () => createReducer('sum', FieldType.Integer));
    agg.add(0n, Float64Array.from([1e9, 5e9, 12e9]), column(FieldType.Integer, [1, 2, 3]), 0, 3);
    agg.add(15n * S, Float64Array.from([0, 20e9]), column(FieldType.Integer, [4, 5]), 0, 2);
    assert.deepEqual(agg.results(), [
      { start: 0n, rows: [{ value: 3 }] },
      { start: 10n * S, rows: [{ value: 7 }] },
      { start: 30n * S, rows: [{ value: 5 }] },
    ]);
  });
  it('uses block statistics only when the block lies in one window and the reducer takes them', () => {
    const agg = new WindowedAggregator(spec, () => createReducer('count', FieldType.Float));
    assert.equal(agg.addStats(1n * S, 9n * S, { count: 4 }), true);
    assert.equal(agg.addStats(9n * S, 11n * S, { count: 2 }), false);
    agg.add(0n, Float64Array.from([2e9]), column(FieldType.Float, [1]), 0, 1);
    assert.deepEqual(agg.results(), [{ start: 0n, rows: [{ value: 5 }] }]);
    const med = new WindowedAggregator(spec, () => createReducer('median', FieldType.Float));
    assert.equal(med.addStats(1n * S, 2n * S, { count: 1 }), false);
    assert.deepEqual(med.results(), []);
  });
});

describe('windowRows', () => {
  it('labels with the window start, keeps point times for top/bottom/sample', () => {
    const res = [{ start: 0n, rows: [{ time: 3n, value: 1 }] }, { start: 10n, rows: [{ time: 12n, value: 2 }, { time: 15n, value: 4 }] }];
    assert.deepEqual(windowRows(res, 'max'), [{ time: 0n, value: 1 }, { time: 10n, value: 2 }, { time: 10n, value: 4 }]);
    assert.deepEqual(windowRows(res, 'top'), [{ time: 3n, value: 1 }, { time: 12n, value: 2 }, { time: 15n, value: 4 }]);
  });
  it('an empty first window empties the series (1.x); later empty windows are skipped (oracle)', () => {
    const rows = (v: number) => [{ value: v }];
    assert.deepEqual(windowRows([{ start: 0n, rows: [] }, { start: 10n, rows: rows(1) }], 'percentile'), []);
    assert.deepEqual(windowRows([{ start: 0n, rows: rows(1) }, { start: 10n, rows: [] }, { start: 20n, rows: rows(2) }], 'percentile'), [{ time: 0n, value: 1 }, { time: 20n, value: 2 }]);
  });
});

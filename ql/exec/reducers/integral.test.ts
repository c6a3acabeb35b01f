import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../../engine/index.js';
import { reduce } from '../test-support.js';
import type { Pt } from '../test-support.js';
import { windowSpec } from '../window.js';
import { IntegralReducer } from './integral.js';
import type { IntegralOptions } from './integral.js';

const S = 1_000_000_000n;
const at = (...r: [number, number][]): Pt[] => r.map(([t, v]) => [BigInt(t) * S, v] as const);
const ig = at([0, 1], [15, 3], [25, 2], [70, 5], [75, 5]);
const ii = at([0, 1], [15, 3], [25, 2], [70, 5]);
const rows = (...r: [number, number][]) => r.map(([t, value]) => ({ time: BigInt(t) * S, value }));
const w20 = windowSpec(20n * S);

describe('integral (influxd 1.6.7 answers)', () => {
  it('whole series, float: time 0', () => {
    assert.deepEqual(reduce('integral', FieldType.Float, ig), rows([0, 237.5]));
  });
  it('GROUP BY time(20s), float: crossing segments interpolated', () => {
    assert.deepEqual(reduce('integral', FieldType.Float, ig, { integral: { window: w20 } }), rows([0, 43.75], [20, 48.75], [60, 145]));
  });
  it('GROUP BY time(20s), integer: the Go integer reducer quirk', () => {
    assert.deepEqual(reduce('integral', FieldType.Integer, ii, { integral: { window: w20 } }), rows([0, 43.75], [20, 51.25], [60, 75]));
    assert.deepEqual(reduce('integral', FieldType.Integer, ii, { integral: { window: w20, unitNs: 10n * S } }), rows([0, 4.375], [20, 5.125], [60, 7.5]));
  });
  it('without GROUP BY time: float labelled 0, integer labelled with the lower bound', () => {
    assert.deepEqual(reduce('integral', FieldType.Float, ig.slice(1), { integral: { startNs: 10n * S } }), rows([0, 207.5]));
    assert.deepEqual(reduce('integral', FieldType.Integer, ii.slice(1), { integral: { startNs: 10n * S } }), rows([10, 182.5]));
  });
  it('a lone point at its window start gives no row; elsewhere a 0', () => {
    assert.deepEqual(reduce('integral', FieldType.Float, ig.slice(4), { integral: { window: windowSpec(5n * S) } }), []);
    assert.deepEqual(reduce('integral', FieldType.Float, ig.slice(4)), rows([0, 0]));
    assert.deepEqual(reduce('integral', FieldType.Integer, ii.slice(3), { integral: { startNs: 70n * S } }), []);
  });
  it('ORDER BY time DESC: windows are labelled by their end, sums are negative (oracle)', () => {
    const run = (type: FieldType, pts: Pt[], opts: IntegralOptions) => {
      const r = new IntegralReducer(type, { ...opts, descending: true });
      for (const [t, v] of [...pts].reverse()) r.point(BigInt(t), v as number);
      return r.result();
    };
    assert.deepEqual(run(FieldType.Float, ig, { window: w20 }), rows([80, -71.66666666666666], [40, -122.08333333333333], [20, -43.75], [20, 0]));
    assert.deepEqual(run(FieldType.Integer, ii, { window: w20 }), rows([80, -46.66666666666666], [40, -174.58333333333331], [20, -41.25], [20, 0]));
    assert.deepEqual(run(FieldType.Float, ig, {}), []);
  });
  it('is the same whatever the batch cuts', () => {
    for (const cuts of [[1], [2, 3], [1, 2, 3, 4]]) {
      assert.deepEqual(reduce('integral', FieldType.Float, ig, { integral: { window: w20 } }, cuts), rows([0, 43.75], [20, 48.75], [60, 145]));
    }
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import type { Call } from '../ast/nodes.js';
import type { AggCall, AggTransform } from './agg-calls.js';
import { transformMultiRows, windowsNewestFirst, type MultiRowOptions } from './multi-row-transforms.js';
import type { Scalar, TimedValue } from './value.js';

const H = 3_600_000_000_000n;
// distinct(level) of the shared `sparse` data per 2h window (influxd 1.6.7).
const distinct: TimedValue[] = ([[0, 3], [0, 4], [2, 1], [4, 2], [4, 7], [8, 9], [8, 5]] as const).map(([h, v]) => ({ time: BigInt(h) * H, value: v }));
const inner = {} as AggCall;
const tr = (name: string): AggTransform => ({ key: name, name, inner, expr: {} as Call });
const opts = (o: Partial<MultiRowOptions> = {}): MultiRowOptions => ({
  pointsOf: () => distinct,
  innerType: FieldType.Integer,
  argsOf: (t) => (t.name === 'derivative' ? { unitNs: 2n * H, descending: false } : { descending: false }),
  offset: 0,
  limit: 0,
  fill: { mode: 'null' },
  typed: () => true,
  ...o,
});
const table = (rows: ReturnType<typeof transformMultiRows>, keys: string[]): (number | Scalar)[][] =>
  rows.map((r) => [Number(r.time / H), ...keys.map((k) => r.values.get(k) ?? null)]);

describe('transforms over distinct() (influxd 1.6.7 answers)', () => {
  it('joins the columns by time, the k-th value of each at a time in the k-th row', () => {
    const rows = transformMultiRows([tr('derivative'), tr('difference'), tr('cumulative_sum')], opts());
    assert.deepEqual(table(rows, ['derivative', 'difference', 'cumulative_sum']), [
      [0, null, null, 3],
      [0, null, null, 7],
      [2, -2, -2, 8],
      [4, 1, 1, 10],
      [4, null, null, 17],
      [8, 3.5, 7, 26],
      [8, null, null, 31],
    ]);
  });
  it('cuts OFFSET and LIMIT per column before the join', () => {
    const rows = transformMultiRows([tr('derivative'), tr('cumulative_sum')], opts({ offset: 1, limit: 2 }));
    assert.deepEqual(table(rows, ['derivative', 'cumulative_sum']), [
      [0, null, 7],
      [2, null, 8],
      [4, 1, null],
      [8, 3.5, null],
    ]);
  });
  it('fill(previous) fills the joined null cells with the column before', () => {
    const rows = transformMultiRows([tr('elapsed'), tr('difference')], opts({ fill: { mode: 'previous' }, argsOf: () => ({ unitNs: H, descending: false }) }));
    assert.deepEqual(table(rows, ['elapsed', 'difference']), [
      [0, 0, null],
      [2, 2, -2],
      [4, 2, 1],
      [4, 0, 1],
      [8, 4, 7],
      [8, 0, 7],
    ]);
  });
  it('ORDER BY time DESC takes the windows newest first, each in its own order', () => {
    const desc = windowsNewestFirst(distinct, (t) => t);
    assert.deepEqual(desc.map((p) => p.value), [9, 5, 2, 7, 1, 3, 4]);
  });
});

/**
 * StreamSumReducer follows the inner rows' arrival order while it holds at most its cap of
 * points, and adds them as they came once past it (bounded memory, last bits may differ).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType, type ValueColumn } from '../../../engine/index.js';
import type { PartialClock } from './partials.js';
import { StreamSumReducer } from './stream-sum.js';

const column = (values: number[]): ValueColumn => ({ type: FieldType.Float, values: Float64Array.from(values) }) as unknown as ValueColumn;

/** Two series with rows at the same two times: b's 2.5 survives only when a's huge values cancel before it is added. */
function feed(r: StreamSumReducer, clock: PartialClock): void {
  const offsets = Float64Array.from([0, 1]);
  clock.series = 0;
  r.add(0n, offsets, column([1e17, -1e17]), 0, 2);
  clock.series = 1;
  r.add(0n, offsets, column([2.5, 0]), 0, 2);
}

test('under its cap the sum follows the rows by time, then series', () => {
  const clock: PartialClock = { series: 0, shard: 0n };
  const r = new StreamSumReducer('sum', { order: 'time-then-series' }, false, clock, 4);
  feed(r, clock);
  let expected = 0;
  for (const v of [1e17, 2.5, -1e17, 0]) expected += v;
  let seriesOrder = 0;
  for (const v of [1e17, -1e17, 2.5, 0]) seriesOrder += v;
  assert.notEqual(expected, seriesOrder, 'the data tells the orders apart');
  assert.deepEqual(r.result(), [{ value: expected }]);
});

test('past its cap the points held are added as they came, and the rest as it arrives', () => {
  const clock: PartialClock = { series: 0, shard: 0n };
  const r = new StreamSumReducer('mean', { order: 'time-then-series' }, false, clock, 3);
  feed(r, clock);
  let seriesOrder = 0;
  for (const v of [1e17, -1e17, 2.5, 0]) seriesOrder += v;
  assert.deepEqual(r.result(), [{ value: seriesOrder / 4 }]);
  assert.equal((r as unknown as { pts: unknown }).pts, null, 'nothing is held past the cap');
});

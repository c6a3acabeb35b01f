import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seriesRowCount, windowRowsOf, windowRowValues, windowSeries, type WindowRows } from './window-rows.js';

const rows: WindowRows = { first: 60_000_000_000n, interval: 60_000_000_000n, windows: [2, 0], columns: [[1, null, 3], [null, 5n, 6.5]] };

test('window rows as values: the window start, then each column at that window, in row order', () => {
  assert.deepEqual(windowRowValues(rows), [
    [180_000_000_000n, 3, 6.5],
    [60_000_000_000n, 1, null],
  ]);
});

test('a window series makes its values once, when read; a copy is an ordinary series with the same values', () => {
  const s = windowSeries({ name: 'cpu', columns: ['time', 'a', 'b'] }, rows);
  assert.equal(windowRowsOf(s), rows);
  assert.equal(seriesRowCount(s), 2);
  assert.equal(s.values, s.values);
  assert.deepEqual(s.values, windowRowValues(rows));
  const copy = { ...s, partial: true };
  assert.equal(windowRowsOf(copy), undefined);
  assert.deepEqual(copy.values, windowRowValues(rows));
  assert.equal(seriesRowCount({ ...copy, values: copy.values.slice(1) }), 1);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillNullCells } from './fill-cells.js';
import type { Cell } from '../result.js';

// influxd 1.6.7: `SELECT max(latency), message ... GROUP BY time(30m) fill(-1)` / fill(previous).
const rows = (): Cell[][] => [
  [0n, 1.938, 'path'],
  [1n, -1, null],
  [2n, 0.21, null],
];

test('fill(N) gives every null cell N as written', () => {
  const r = rows();
  fillNullCells(r, { mode: 'number', value: -1n });
  assert.deepEqual(r, [[0n, 1.938, 'path'], [1n, -1, -1], [2n, 0.21, -1]]);
});

test('fill(previous) gives a null cell the value of the row before', () => {
  const r = rows();
  fillNullCells(r, { mode: 'previous' });
  assert.deepEqual(r, [[0n, 1.938, 'path'], [1n, -1, 'path'], [2n, 0.21, 'path']]);
});

test('other fills leave the cells alone', () => {
  const r = rows();
  fillNullCells(r, { mode: 'linear' });
  assert.deepEqual(r, rows());
});

test('a column marked null-whatever-it-reads is left alone (1.x fills inputs: `max(v) * 1h ... fill(1)` stays null)', () => {
  const r = rows();
  fillNullCells(r, { mode: 'number', value: -1n }, [false, true]);
  assert.deepEqual(r, [[0n, 1.938, 'path'], [1n, -1, null], [2n, 0.21, null]]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExpr } from '../parser/query.js';
import { parseQuery } from '../index.js';
import type { Column } from '../plan/projection.js';
import { printExpr } from '../ast/print.js';
import { executeStatements } from './executor.js';
import { timeReadsFillValue } from './fill-time-reference.js';
import { withDbEngine } from './test-support.js';

const col = (text: string): Column => ({ name: text, fieldName: text, expr: parseExpr(text) });
const printed = (cols: readonly Column[]) => cols.map((c) => printExpr(c.expr));

test('fill(N) gives every `time` reference in a field expression the value N as written', () => {
  const cols = [col('max(v) + time'), col('abs(time) * 2'), col('v'), col('time')];
  assert.deepEqual(printed(timeReadsFillValue(cols, { mode: 'number', value: 1n })), ['max(v) + 1', 'abs(1) * 2', 'v', 'time']);
  assert.deepEqual(printed(timeReadsFillValue(cols, { mode: 'number', value: 1.5 })), ['max(v) + 1.5', 'abs(1.5) * 2', 'v', 'time']);
  // The scanner's default is nil (or SkipDefault) under every other fill: the reference stays null.
  for (const mode of ['null', 'none', 'previous', 'linear'] as const) assert.equal(timeReadsFillValue(cols, { mode }), cols);
  // A column not reading `time` keeps its node (per-node memos still hold).
  const same = timeReadsFillValue(cols, { mode: 'number', value: 2n });
  assert.equal(same[2], cols[2]);
});

// influxd 1.6.7 answered the same rows (cases s-k304, s-k305).
test('aggregate and raw rows read fill(N) for `time`, also in windows with data', async () => {
  await withDbEngine('strata-filltime-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('m v=9,i=40i 1000\nm v=12,i=12i 1500') });
    const q =
      'SELECT max(v) + time FROM m WHERE time >= 0 AND time < 2000s GROUP BY time(500s) fill(1); ' +
      'SELECT i + time, time + 1 FROM m fill(-2); SELECT v + time FROM m fill(previous)';
    const results = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
    const values = results.map((r) => r.series?.[0]?.values.map((row) => row.slice(1)));
    assert.deepEqual(values, [[[2], [2], [10], [13]], [[38, -1], [10, -1]], [[null], [null]]]);
  });
});

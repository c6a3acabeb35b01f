import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExpr } from '../parser/query.js';
import { durationComparison, nullByDuration } from './duration-constant.js';

// influxd 1.6.7: `WHERE 1h * 2 > 90m` keeps every row, `WHERE 2 * 1h > 90m` none (reduce folds D*N only).
test('comparisons of durations fold as 1.x reduces them', () => {
  assert.equal(durationComparison(parseExpr('1h > 30m')), true);
  assert.equal(durationComparison(parseExpr('1h * 2 > 90m')), true);
  assert.equal(durationComparison(parseExpr('1h * 1.5 = 1h')), true, 'time.Duration(1.5) is 1');
  assert.equal(durationComparison(parseExpr('1h + 30m - 90m = 0s')), true);
  assert.equal(durationComparison(parseExpr('-1h < 0s')), true);
  assert.equal(durationComparison(parseExpr('1h / 0 = 0s')), true);
  assert.equal(durationComparison(parseExpr('2 * 1h > 90m')), undefined);
  assert.equal(durationComparison(parseExpr('5 < 1h')), undefined);
  assert.equal(durationComparison(parseExpr('v < 1h')), undefined);
});

test('a column is null whatever it reads when the valuer meets a duration', () => {
  assert.equal(nullByDuration(parseExpr('max(v) * 1h')), true);
  assert.equal(nullByDuration(parseExpr('abs(mean(v) - 1h)')), true);
  assert.equal(nullByDuration(parseExpr('derivative(mean(v), 1h)')), false);
  assert.equal(nullByDuration(parseExpr('max(v) * 2')), false);
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import type { SelectStatement } from '../ast/statements.js';
import { parseStatement } from '../parser/query.js';
import { analyzeProjection } from './projection.js';

const schema = { fields: new Map([['f', FieldType.Float], ['n', FieldType.Integer]]), tags: new Set(['t']) };

function analyze(q: string, groupsByTime = false): void {
  const stmt = parseStatement(q) as SelectStatement;
  analyzeProjection(stmt.fields, schema, new Set(), groupsByTime);
}

// Texts recorded from 1.6.7 (fixtures/queries/16-errors.test and 11-int64.test).
describe('projection: compile-time call checks of 1.x', () => {
  it('refuses top() or bottom() next to another function', () => {
    assert.throws(() => analyze('SELECT top(n, 2), bottom(n, 1) FROM m'), { message: 'selector function top() cannot be combined with other functions' });
    assert.throws(() => analyze('SELECT max(f), bottom(n, 1) FROM m'), { message: 'selector function bottom() cannot be combined with other functions' });
    assert.doesNotThrow(() => analyze('SELECT top(f, t, 2), t FROM m'));
  });
  it('refuses moving_average() without its window', () => {
    assert.throws(() => analyze('SELECT moving_average(f) FROM m'), { message: 'invalid number of arguments for moving_average, expected 2, got 1' });
    assert.doesNotThrow(() => analyze('SELECT moving_average(f, 3) FROM m'));
  });
  it('refuses a unit that is not positive', () => {
    assert.throws(() => analyze('SELECT derivative(f, -1s) FROM m'), { message: 'duration argument must be positive, got -1s' });
    assert.throws(() => analyze('SELECT elapsed(f, 0s) FROM m'), { message: 'duration argument must be positive, got 0s' });
    assert.doesNotThrow(() => analyze('SELECT non_negative_derivative(f, 1m) FROM m'));
  });
});

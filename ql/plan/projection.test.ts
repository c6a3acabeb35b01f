import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import type { SelectStatement } from '../ast/statements.js';
import { parseStatement } from '../parser/query.js';
import { analyzeProjection } from './projection.js';

const schema = { fields: new Map([['f', FieldType.Float], ['n', FieldType.Integer], ['s', FieldType.String], ['b', FieldType.Boolean]]), tags: new Set(['t']) };

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

// Recorded from 1.6.7 in fixtures/queries/24-wildcard-calls.test and 23-holt-winters.test.
describe('projection: calls over * and regexes', () => {
  const columns = (q: string, groupsByTime = false): string[] => {
    const stmt = parseStatement(q) as SelectStatement;
    return analyzeProjection(stmt.fields, schema, new Set(), groupsByTime).columns.map((c) => c.name);
  };

  it('expands the innermost call of a chain and names columns <alias or outer function>_<field>', () => {
    assert.deepEqual(columns('SELECT derivative(mean(*)) FROM m GROUP BY time(1m)', true), ['derivative_f', 'derivative_n']);
    assert.deepEqual(columns('SELECT derivative(mean(*), 1m) AS d FROM m GROUP BY time(1m)', true), ['d_f', 'd_n']);
    assert.deepEqual(columns('SELECT max(/f/) AS m FROM m'), ['m_f']);
    assert.deepEqual(columns('SELECT holt_winters(mean(*), 1, 0) FROM m GROUP BY time(1m)', true), ['holt_winters_f', 'holt_winters_n']);
  });

  it('refuses a pattern inside an expression, and leaves top()/bottom() to their own check', () => {
    assert.throws(() => analyze('SELECT mean(*) + 1 FROM m'), { message: 'unsupported expression with wildcard: mean()' });
    assert.throws(() => analyze('SELECT -max(/f/) FROM m'), { message: 'unsupported expression with regex field: max()' });
    assert.throws(() => analyze('SELECT top(*, 2) FROM m'), { message: 'expected first argument to be a field in top(), found *' });
  });

  it('checks holt_winters() arguments in 1.x order', () => {
    assert.throws(() => analyze('SELECT holt_winters(value, 0, 1) FROM m'), { message: 'second arg to holt_winters must be greater than 0, got 0' });
    assert.throws(() => analyze('SELECT holt_winters(f, 2, 1) FROM m'), { message: 'must use aggregate function with holt_winters' });
    assert.throws(() => analyze('SELECT holt_winters(mean(f), 2, 1) FROM m'), { message: 'holt_winters aggregate requires a GROUP BY interval' });
    assert.throws(() => analyze('SELECT holt_winters_with_fit(mean(f), 2, 1.5) FROM m GROUP BY time(1m)', true), { message: 'expected integer argument as third arg in holt_winters_with_fit' });
  });
});

// Texts recorded from 1.6.7 (differential cases s-c043 and after).
describe('projection: 1.6.7 texts for wildcards, negation and selector checks', () => {
  it('refuses a wildcard as an operand', () => {
    assert.throws(() => analyze('SELECT * + 1 FROM m'), { message: 'unable to use wildcard in a binary expression' });
    assert.throws(() => analyze('SELECT f + * FROM m'), { message: 'unable to use wildcard in a binary expression' });
  });
  it('types -x as -1 * x', () => {
    assert.throws(() => analyze('SELECT -s FROM m'), { message: 'type error: -1 * s::string: incompatible types: integer and string' });
    assert.throws(() => analyze('SELECT 2 * -b FROM m'), { message: 'type error: -1 * b::boolean: incompatible types: integer and boolean' });
    assert.throws(() => analyze('SELECT -t FROM m'), { message: 'type error: -1 * t::tag: incompatible types: integer and tag' });
    assert.doesNotThrow(() => analyze('SELECT -f, -n FROM m'));
  });
  it('prints a float literal in a type error as Go does (three decimals, ties to even)', () => {
    assert.throws(() => analyze('SELECT n & 2.5 FROM m'), { message: 'type error: n::integer & 2.500: incompatible types: integer and float' });
    assert.throws(() => analyze('SELECT s + 0.0625 FROM m'), { message: 'type error: s::string + 0.062: incompatible types: string and float' });
    assert.throws(() => analyze('SELECT s + 123456.78912 FROM m'), { message: 'type error: s::string + 123456.789: incompatible types: string and float' });
  });
  it('does not count a call over * or a regex as a selector beside fields', () => {
    assert.throws(() => analyze('SELECT max(*), t FROM m'), { message: 'mixing aggregate and non-aggregate queries is not supported' });
    assert.throws(() => analyze('SELECT first(/f/), n FROM m'), { message: 'mixing aggregate and non-aggregate queries is not supported' });
  });
  it('prints a number limit of top()/bottom() with three decimals', () => {
    assert.throws(() => analyze('SELECT top(f, 1.5) FROM m'), { message: 'expected integer as last argument in top(), found 1.500' });
  });
});

// Recorded from 1.6.7 (differential cases s-c053 to s-c059).
describe('projection: a transform of a raw field beside fields', () => {
  it('is mixing aggregate and non-aggregate, also beside a math call or inside arithmetic', () => {
    for (const q of ['SELECT f, moving_average(n, 2) FROM m', 'SELECT t, derivative(f) FROM m', 'SELECT abs(f), derivative(n) FROM m', 'SELECT derivative(f) * n FROM m']) {
      assert.throws(() => analyze(q), { message: 'mixing aggregate and non-aggregate queries is not supported' }, q);
    }
  });
  it('leaves transforms alone, math over * and selectors with math over fields', () => {
    for (const q of ['SELECT derivative(f), difference(n) FROM m', 'SELECT sqrt(*) FROM m', 'SELECT abs(f), max(n) FROM m', 'SELECT max(f) + n FROM m']) assert.doesNotThrow(() => analyze(q), q);
  });
});

// Recorded from 1.6.7: operand types are checked after the fields are validated.
describe('projection: check order of 1.6.7', () => {
  it('reports mixing, distinct and GROUP BY errors before a type error', () => {
    assert.throws(() => analyze('SELECT t * n, mean(f) FROM m'), { message: 'mixing aggregate and non-aggregate queries is not supported' });
    assert.throws(() => analyze('SELECT distinct(n), t * n FROM m'), { message: 'aggregate function distinct() cannot be combined with other functions or fields' });
    assert.throws(() => analyze('SELECT t * n FROM m', true), { message: 'GROUP BY requires at least one aggregate function' });
    assert.throws(() => analyze('SELECT top(n, 2), t * n FROM m'), { message: 'type error: t::tag * n::integer: incompatible types: tag and integer' });
  });
});

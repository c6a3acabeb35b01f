/** WHERE → TagExpr + time range translation. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SelectStatement } from '../../ast/nodes.js';
import { parseStatement } from '../../parser/query.js';
import { compilePattern } from '../../../engine/index.js';
import { SHOW_OPTIONS, tagCondition } from './tag-cond.js';

const where = (cond: string) => (parseStatement(`SELECT v FROM m WHERE ${cond}`) as SelectStatement).condition;

test('tag comparisons, AND / OR, regexes', () => {
  assert.deepEqual(tagCondition(where("host = 'a' AND region != 'b'"), 0n).expr, {
    op: 'and',
    left: { op: 'eq', key: 'host', value: 'a' },
    right: { op: 'neq', key: 'region', value: 'b' },
  });
  assert.deepEqual(tagCondition(where("host =~ /^a/ OR 'x' = region"), 0n).expr, {
    op: 'or',
    left: { op: 'match', key: 'host', pattern: '^a', flags: 'u' },
    right: { op: 'eq', key: 'region', value: 'x' },
  });
  assert.deepEqual(tagCondition(where('host !~ /b/'), 0n).expr, { op: 'nmatch', key: 'host', pattern: 'b', flags: 'u' });
});

test('time: top-level comparisons give the range; under OR they only widen it', () => {
  const c = tagCondition(where("host = 'a' AND time >= 10 AND time < 20"), 0n);
  assert.deepEqual([c.expr, c.minNs, c.maxNs, c.timed, c.empty], [{ op: 'eq', key: 'host', value: 'a' }, 10n, 19n, true, false]);
  const o = tagCondition(where("time > 5 OR host = 'a'"), 0n);
  assert.deepEqual([o.expr.op, o.timed], ['true', true]);
  assert.equal(tagCondition(where('time > 20 AND time < 10'), 0n).empty, true);
  assert.equal(tagCondition(null, 0n).timed, false);
});

test('non-string literals: ignored by SHOW, never widen a delete', () => {
  assert.deepEqual(tagCondition(where('host = 1'), 0n, SHOW_OPTIONS).expr, { op: 'true' });
  assert.deepEqual(tagCondition(where('host = 1'), 0n).expr, { op: 'false' });
  assert.deepEqual(tagCondition(where("host = 1 OR host = 'a'"), 0n).expr, { op: 'eq', key: 'host', value: 'a' });
});

test('_name compares the measurement per measurement', () => {
  const c = tagCondition(where("_name = 'cpu' AND host = 'a'"), 0n, SHOW_OPTIONS);
  assert.deepEqual(c.exprFor({ name: 'cpu', fields: new Map() }), { op: 'eq', key: 'host', value: 'a' });
  assert.deepEqual(c.exprFor({ name: 'mem', fields: new Map() }), { op: 'false' });
});

test('SHOW: a comparison on a field key of the measurement matches every series (1.x index)', () => {
  const c = tagCondition(where("level = 'error' OR level = 'warn'"), 0n, SHOW_OPTIONS);
  const asTag = { op: 'or', left: { op: 'eq', key: 'level', value: 'error' }, right: { op: 'eq', key: 'level', value: 'warn' } };
  assert.deepEqual(c.exprFor({ name: 'events', fields: new Map([['code', 1]]) }), asTag);
  assert.deepEqual(c.exprFor({ name: 'sparse', fields: new Map([['level', 1]]) }), { op: 'true' });
  assert.deepEqual(tagCondition(where("level::tag = 'error'"), 0n, SHOW_OPTIONS).exprFor({ name: 'sparse', fields: new Map([['level', 1]]) }), {
    op: 'eq',
    key: 'level',
    value: 'error',
  });
  // A delete never widens: it names the field to its guard instead.
  assert.deepEqual(tagCondition(where("level = 'error'"), 0n).exprFor({ name: 'sparse', fields: new Map([['level', 1]]) }), { op: 'eq', key: 'level', value: 'error' });
});

test('operators other than = != =~ !~ are 1.x invalid tag comparisons; onKey sees field names first', () => {
  assert.throws(() => tagCondition(where('v > 1'), 0n), /invalid tag comparison operator/);
  const seen: string[] = [];
  assert.throws(() => tagCondition(where("host = 'a' AND v > 1"), 0n, { onKey: (k) => seen.push(k) }));
  assert.deepEqual(seen, ['host', 'v']);
});

test('regex matchers keep RE2 flags: (?i) applies inside character classes too', () => {
  const expr = tagCondition(where('host =~ /(?i)^Server0[a-c]$/'), 0n, SHOW_OPTIONS).expr;
  assert.ok(expr.op === 'match');
  const re = compilePattern(expr.pattern, expr.flags);
  assert.ok(re.test('SERVER0B') && re.test('server0a') && !re.test('server0d'));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldType } from '../../../engine/index.js';
import { parseQuery } from '../../parser/query.js';
import type { SelectStatement } from '../../ast/nodes.js';
import { printExpr } from '../../ast/print.js';
import { reduceForSeries } from './series-filter.js';

const schema = { fields: new Map([['v', FieldType.Float]]), tags: new Set(['host', 'region']) };
const where = (text: string) => (parseQuery(`SELECT v FROM m WHERE ${text}`)[0] as SelectStatement).condition!;
const reduce = (text: string, tags: Record<string, string>) => {
  const r = reduceForSeries(where(text), tags, schema);
  return typeof r === 'boolean' ? r : printExpr(r);
};

test('tag comparisons are decided per series and folded through AND / OR', () => {
  assert.equal(reduce("host = 'a' OR v > 1", { host: 'a' }), true);
  assert.equal(reduce("host = 'a' OR v > 1", { host: 'b' }), 'v > 1');
  assert.equal(reduce("host = 'a' AND v > 1", { host: 'b' }), false);
  assert.equal(reduce("host = 'a' AND v > 1", { host: 'a' }), 'v > 1');
  assert.equal(reduce("region =~ /e.*/ AND (v > 1 OR host != 'b')", { host: 'b', region: 'eu' }), 'v > 1');
  // A tag the series lacks compares as the empty string.
  assert.equal(reduce("region = '' OR v > 1", { host: 'c' }), true);
  assert.equal(reduce("region !~ /./ AND v < 3", { host: 'c' }), 'v < 3');
});

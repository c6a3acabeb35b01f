import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MeasurementIndex } from './measurement.js';
import { matchesTags, selectSeries, type TagExpr } from './tag-expr.js';
import type { Tag } from '../point.js';

const keys = ['host', 'region'];
const values = ['a', 'b', 'c'];
const tagsArb = fc
  .record({ host: fc.option(fc.constantFrom(...values)), region: fc.option(fc.constantFrom(...values)) })
  .map((r) => Object.entries(r).filter(([, v]) => v !== null).map(([key, value]) => ({ key, value: value as string })));
const leaf: fc.Arbitrary<TagExpr> = fc.oneof(
  fc.record({ op: fc.constantFrom('eq' as const, 'neq' as const), key: fc.constantFrom(...keys), value: fc.constantFrom('', ...values) }),
  fc.record({ op: fc.constantFrom('match' as const, 'nmatch' as const), key: fc.constantFrom(...keys), pattern: fc.constantFrom('^a', 'b|c', '^$', '.*') }),
);
const exprArb: fc.Arbitrary<TagExpr> = fc.letrec((tie) => ({
  e: fc.oneof({ depthSize: 'small' }, leaf, fc.record({ op: fc.constantFrom('and' as const, 'or' as const), left: tie('e') as fc.Arbitrary<TagExpr>, right: tie('e') as fc.Arbitrary<TagExpr> })),
})).e;

test('postings selection equals per-series evaluation', () => {
  fc.assert(
    fc.property(fc.array(tagsArb, { maxLength: 30 }), exprArb, (series: Tag[][], expr) => {
      const m = new MeasurementIndex('m');
      series.forEach((tags, id) => m.addSeries(id, tags));
      const expected = series.map((t, id) => (matchesTags(expr, t) ? id : -1)).filter((id) => id >= 0);
      assert.deepEqual(selectSeries(m, expr), expected);
    }),
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { intersect, union, difference, unionAll } from './postings.js';

const sortedSet = fc.uniqueArray(fc.nat(200)).map((a) => a.sort((x, y) => x - y));

test('postings operations agree with set semantics', () => {
  fc.assert(
    fc.property(sortedSet, sortedSet, sortedSet, (a, b, c) => {
      const sa = new Set(a);
      const sb = new Set(b);
      assert.deepEqual(intersect(a, b), a.filter((x) => sb.has(x)));
      assert.deepEqual(difference(a, b), a.filter((x) => !sb.has(x)));
      assert.deepEqual(union(a, b), [...new Set([...a, ...b])].sort((x, y) => x - y));
      assert.deepEqual(unionAll([a, b, c]), [...new Set([...a, ...b, ...c])].sort((x, y) => x - y));
      assert.ok(sa.size === a.length);
    }),
  );
});

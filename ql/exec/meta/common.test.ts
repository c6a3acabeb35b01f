/** byteOrder agrees with UTF-8 byte comparison (property), page() follows 1.x OFFSET/LIMIT. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { byteOrder, page } from './common.js';

test('byteOrder is the UTF-8 byte order', () => {
  const sign = (n: number) => Math.sign(n);
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
      assert.equal(sign(byteOrder(a, b)), sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }),
    { numRuns: 2000 },
  );
  assert.ok(byteOrder('\uffff', '😀') < 0);
  assert.ok(byteOrder('Z', 'a') < 0);
  assert.ok(byteOrder('a', 'ab') < 0);
});

test('page: OFFSET then LIMIT, LIMIT 0 = all', () => {
  assert.deepEqual(page([1, 2, 3, 4], 2, 1), [2, 3]);
  assert.deepEqual(page([1, 2, 3, 4], 0, 3), [4]);
  assert.deepEqual(page([1, 2], 0, 0), [1, 2]);
  assert.deepEqual(page([1, 2], 5, 5), []);
});

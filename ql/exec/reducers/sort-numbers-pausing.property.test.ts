/**
 * The pausing sort gives exactly Float64Array.prototype.sort's order (-0 before +0, NaN last,
 * infinities, ties), whatever the run size, and pauses while it merges.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sortNumbersPausing } from './sort-numbers-pausing.js';

const value = fc.oneof(
  fc.double(),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1, -1, 2 ** 53, -(2 ** 53)),
  fc.integer({ min: -3, max: 3 }),
);

test('sortNumbersPausing sorts as the native typed-array sort does', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(value, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), async (xs, run) => {
      const want = Float64Array.from(xs).sort();
      const got = await sortNumbersPausing(Float64Array.from(xs), () => undefined, run);
      assert.equal(got.length, want.length);
      for (let i = 0; i < want.length; i++) assert.ok(Object.is(got[i], want[i]), `at ${i}: ${got[i]} for ${want[i]}`);
    }),
    { numRuns: 500 },
  );
});

test('sortNumbersPausing pauses between runs and during the merge', async () => {
  const xs = Float64Array.from({ length: 1 << 19 }, (_, i) => ((i * 7919) % 100_003) - 50_000);
  let pauses = 0;
  const got = await sortNumbersPausing(xs.slice(), () => {
    pauses++;
    return Promise.resolve();
  });
  assert.deepEqual(got, xs.slice().sort());
  // 8 runs of 65,536 natively, then three merge passes of 2^19 values, a pause per 2^17 merged.
  assert.ok(pauses >= 8 + 12, `${pauses} pauses`);
});

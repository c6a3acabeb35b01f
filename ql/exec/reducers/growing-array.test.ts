/**
 * GrowingArray against a plain array: random appends (some larger than the whole buffer) keep
 * every written element in `cur`, with the ahead copy on (aheadFrom 8, small steps so that
 * swaps find part of the copy still to do) and off.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../../engine/index.js';
import { GrowingArray } from './growing-array.js';

for (const [aheadFrom, step] of [[8, 1], [8, 5], [1 << 30, 1]] as const) {
  test(`GrowingArray keeps every appended element (aheadFrom ${aheadFrom}, step ${step})`, () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = mulberry32(seed);
      const g = new GrowingArray((n) => new Float64Array(n), 1 + Math.floor(rand() * 8), aheadFrom, step);
      const ref: number[] = [];
      for (let k = 0; k < 60; k++) {
        const added = rand() < 0.1 ? Math.floor(rand() * 300) : Math.floor(rand() * 20);
        const cur = g.reserve(ref.length, ref.length + added);
        for (let i = 0; i < added; i++) {
          const v = seed * 1e6 + ref.length;
          cur[ref.length] = v;
          ref.push(v);
        }
        g.ahead(ref.length, added);
        assert.ok(g.cur.length >= ref.length);
        assert.deepEqual(Array.from(g.cur.subarray(0, ref.length)), ref, `seed ${seed}, append ${k}`);
      }
    }
  });
}

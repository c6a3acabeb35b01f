/**
 * The shape cache (ql/parser/shape-cache.ts) against fresh parses over the random statement
 * generators of the differential search: every generated SELECT, nested SELECT, typed SELECT and
 * SHOW, and each of them with its literals varied, parses through the cache to exactly the fresh
 * parse (or the same error).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ShapeCache } from '../ql/parser/shape-cache.js';
import { assertSame, vary } from '../ql/parser/shape-test-support.js';
import { picker } from './random-cases/pick.js';
import { randomNestedSelect } from './random-cases/select-nested.js';
import { randomTypedSelect } from './random-cases/select-typed.js';
import { randomSelect } from './random-cases/select.js';
import { randomShow } from './random-cases/show.js';

test('random case generators: cached parses equal fresh parses, with literals as generated and varied', () => {
  const p = picker(20261127);
  const cache = new ShapeCache(256);
  const generators = [randomSelect, randomNestedSelect, randomTypedSelect, randomShow];
  let cases = 0;
  for (let i = 0; i < 1500; i++) {
    const q = generators[i % generators.length]!(p);
    assertSame(cache, q);
    assertSame(cache, vary(p.r, q, 0.5));
    assertSame(cache, vary(p.r, q, 1));
    cases += 3;
  }
  assert.ok(cache.hits > cases / 4, `only ${cache.hits} rebinds in ${cases} cases`);
});

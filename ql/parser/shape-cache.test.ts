/**
 * ShapeCache: for every text, the cached parse is deep-equal to a fresh parseQuery(), and a text
 * that fails gives the fresh parse's error. Texts are the fixture statements and mutations of
 * them with their string, integer, number and duration literals replaced by other values of the
 * same token type (escapes, unicode, empty strings, beyond 2^53, int64/uint64 overflow, bad
 * durations), so most of them rebind a template.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { mulberry32 } from '../../engine/index.js';
import { parseQuery } from './query.js';
import { ShapeCache, shapeOf } from './shape-cache.js';
import { assertSame, outcome, pick, vary } from './shape-test-support.js';

const STATEMENTS = readFileSync(new URL('../../../fixtures/ql/statements.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'));

function mutate(r: () => number, s: string): string {
  const at = Math.floor(r() * (s.length + 1));
  const to = Math.min(s.length, at + Math.floor(r() * 6));
  switch (Math.floor(r() * 3)) {
    case 0: return s.slice(0, at) + s.slice(to);
    case 1: return s.slice(0, at) + pick(r, [' ', '-', "'", '5', '.5', '10s', '(', ')', ',', 'LIMIT 3', ' OR a = 1', '/x/']) + s.slice(at);
    default: return s.slice(0, at) + s.slice(at, to) + s.slice(at);
  }
}

test('fixture statements with their literals varied: every answer equals a fresh parse', () => {
  const r = mulberry32(20261127);
  const cache = new ShapeCache(64);
  for (const q of STATEMENTS) {
    assertSame(cache, q);
    for (let k = 0; k < 12; k++) assertSame(cache, vary(r, q, k < 6 ? 1 : 0.5));
  }
  assert.ok(cache.hits > STATEMENTS.length, `only ${cache.hits} rebinds`);
});

test('mutated fixture statements with their literals varied: every answer equals a fresh parse', () => {
  const r = mulberry32(11272026);
  const cache = new ShapeCache(16);
  let cases = 0;
  for (let round = 0; round < 40; round++) {
    for (const q of STATEMENTS) {
      const m = mutate(r, q);
      assertSame(cache, m);
      for (let k = 0; k < 3; k++, cases++) assertSame(cache, vary(r, m, 0.7));
    }
  }
  assert.ok(cache.hits > cases / 20, `only ${cache.hits} rebinds in ${cases} cases`);
});

test('an invalid literal gives the fresh parse error after its shape was cached', () => {
  const cache = new ShapeCache(8);
  const cases: Array<[string, string, RegExp]> = [
    ['SELECT v FROM m WHERE v = 1', 'SELECT v FROM m WHERE v = 18446744073709551616', /unable to parse integer at line 1, char 27/],
    ['SELECT v FROM m WHERE v = -1', 'SELECT v FROM m WHERE v = -9223372036854775809', /constant -9223372036854775809 underflows int64/],
    ['SELECT v FROM m WHERE v > 1.5', `SELECT v FROM m WHERE v > 1${'0'.repeat(400)}.5`, /unable to parse number at line 1, char 27/],
    ['SELECT max(v) FROM m WHERE time > 0 GROUP BY time(1m)', 'SELECT max(v) FROM m WHERE time > 0 GROUP BY time(5x)', /invalid duration/],
    ['SELECT v FROM m LIMIT 5', 'SELECT v FROM m LIMIT 18446744073709551616', /.*/],
    ['SELECT mean(v) FROM m GROUP BY time(1m) fill(1)', 'SELECT mean(v) FROM m GROUP BY time(1m) fill(9999999999999999999999)', /.*/],
    ["SELECT v FROM m tz('UTC')", "SELECT v FROM m tz('Nowhere/Zone')", /unable to find time zone Nowhere\/Zone/],
  ];
  for (const [good, bad, error] of cases) {
    assert.deepEqual(cache.parse(good), parseQuery(good));
    assert.equal(shapeOf(bad)?.key, shapeOf(good)?.key, bad);
    const fresh = outcome(() => parseQuery(bad));
    if (!fresh.ok) assert.match((fresh.error as Error).message, error, bad);
    assertSame(cache, bad);
    assertSame(cache, good);
  }
});

test('literals read other than as a node must match the template verbatim', () => {
  const cache = new ShapeCache(8);
  for (const [a, b] of [
    ['SELECT v FROM m WHERE h = \'a\' LIMIT 5', 'SELECT v FROM m WHERE h = \'b\' LIMIT 7'],
    ['SELECT mean(v) FROM m WHERE time > 1 GROUP BY time(1m) fill(1)', 'SELECT mean(v) FROM m WHERE time > 2 GROUP BY time(1m) fill(2)'],
    ["SELECT v FROM m WHERE h = 'a' tz('UTC')", "SELECT v FROM m WHERE h = 'b' tz('Europe/Paris')"],
    ["SELECT v FROM m WHERE h =~ /a'1'/ AND g = 'x'", "SELECT v FROM m WHERE h =~ /a'2'/ AND g = 'y'"],
  ] as const) {
    assert.deepEqual(cache.parse(a), parseQuery(a));
    const hits = cache.hits;
    assert.deepEqual(cache.parse(b), parseQuery(b), b);
    assert.equal(cache.hits, hits, `${b} rebound a template whose other literal differs`);
  }
});

test('a rebind is a new statement sharing the subtrees whose literals did not change', () => {
  const cache = new ShapeCache(8);
  const text = (host: string, from: string): string =>
    `SELECT max(usage_user) from cpu where (hostname = '${host}') and time >= '${from}' and time < '2016-01-01T06:17:00Z' group by time(1m)`;
  const [a] = cache.parse(text('host_1', '2016-01-01T05:17:00Z'));
  const [b] = cache.parse(text('host_2', '2016-01-01T05:17:01Z'));
  assert.equal(cache.hits, 1);
  assert.ok(a?.kind === 'Select' && b?.kind === 'Select');
  assert.notEqual(a, b);
  assert.equal(a.fields, b.fields);
  assert.equal(a.sources, b.sources);
  assert.equal(a.dimensions, b.dimensions, 'time(1m) in both: the dimensions are shared');
  assert.notEqual(a.condition, b.condition);
  assert.deepEqual(b, parseQuery(text('host_2', '2016-01-01T05:17:01Z'))[0]);
});

test('only all-SELECT texts become templates; the cache is bounded', () => {
  const cache = new ShapeCache(3);
  cache.parse("CREATE USER bob WITH PASSWORD 'hunter2'");
  cache.parse("SELECT v FROM m WHERE h = 'a'; SET PASSWORD FOR bob = 'hunter2'");
  cache.parse("SHOW TAG VALUES WITH KEY = \"host\" WHERE h = 'a'");
  assert.equal(cache.size, 0);
  for (let i = 0; i < 10; i++) cache.parse(`SELECT v${i} FROM m WHERE h = 'a'`);
  assert.equal(cache.size, 3);
});

test('a tree too deep to walk is parsed afresh every time, never an error of the cache', () => {
  const chain = (n: number, v: string): string => `SELECT a FROM m WHERE ${Array.from({ length: n }, () => `a = ${v}`).join(' OR ')}`;
  const cache = new ShapeCache(4);
  for (const v of ['1', '2']) assert.deepEqual(cache.parse(chain(1_000, v)), parseQuery(chain(1_000, v)));
  assert.equal(cache.hits, 1);
  const deep = new ShapeCache(4);
  for (const v of ['1', '2']) assert.equal(deep.parse(chain(60_000, v)).length, 1); // deepEqual itself overflows here
  assert.equal(deep.size, 0);
});

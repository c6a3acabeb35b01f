/** ParseCache: a hit is the parse of the same text, the cache is bounded, parameters, errors and passwords bypass it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ParseError } from '../errors.js';
import { MAX_CACHED_TEXT, ParseCache } from './parse-cache.js';
import { parseQuery } from './query.js';

const STATEMENTS = readFileSync(new URL('../../../fixtures/ql/statements.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'));

test('every fixture statement: a miss and a hit both equal a fresh parse', () => {
  const cache = new ParseCache(64);
  for (const q of STATEMENTS) {
    const fresh = parseQuery(q);
    assert.deepEqual(cache.parse(q), fresh, q);
    assert.deepEqual(cache.parse(q), fresh, q);
  }
});

test('a hit shares the cached statements but returns an array the caller may change', () => {
  const cache = new ParseCache(4);
  const q = "SELECT max(usage_user) FROM cpu WHERE hostname = 'host_42' GROUP BY time(1m); SHOW DATABASES";
  const first = cache.parse(q);
  first.pop();
  const second = cache.parse(q);
  const third = cache.parse(q);
  assert.equal(second.length, 2);
  assert.notEqual(second, third);
  assert.equal(second[0], third[0]);
  assert.equal(second[0]!.kind, 'Select');
});

test('bounded: least recently used texts are evicted first', () => {
  const cache = new ParseCache(3);
  const a = cache.parse('SELECT a FROM m');
  const b = cache.parse('SELECT b FROM m');
  cache.parse('SELECT c FROM m');
  assert.equal(cache.parse('SELECT a FROM m')[0], a[0]); // hit: now most recent
  cache.parse('SELECT d FROM m'); // evicts b, the least recently used
  assert.equal(cache.size, 3);
  assert.equal(cache.parse('SELECT a FROM m')[0], a[0]);
  assert.notEqual(cache.parse('SELECT b FROM m')[0], b[0]);
  for (let i = 0; i < 100; i++) cache.parse(`SELECT v FROM m${i}`);
  assert.equal(cache.size, 3);
  assert.notEqual(cache.parse('SELECT a FROM m')[0], a[0]);
});

test('bound parameters, long texts, parse errors and statements with a password are not cached', () => {
  const cache = new ParseCache(8);
  const q = 'SELECT v FROM m WHERE host = $h';
  const one = cache.parse(q, { h: 'a' });
  const two = cache.parse(q, { h: 'b' });
  assert.notDeepEqual(one, two);
  assert.equal(cache.size, 0);
  const long = `SELECT v FROM m WHERE ${Array.from({ length: MAX_CACHED_TEXT / 8 }, (_, i) => `v = ${i}`).join(' OR ')}`;
  assert.ok(long.length > MAX_CACHED_TEXT);
  assert.deepEqual(cache.parse(long), parseQuery(long));
  assert.equal(cache.size, 0);
  assert.throws(() => cache.parse('SELEC v FROM m'), ParseError);
  assert.throws(() => cache.parse('SELEC v FROM m'), ParseError);
  assert.equal(cache.size, 0);
  cache.parse("CREATE USER bob WITH PASSWORD 'hunter2'");
  cache.parse("SHOW DATABASES; SET PASSWORD FOR bob = 'hunter2'");
  assert.equal(cache.size, 0);
  cache.parse('SHOW USERS');
  assert.equal(cache.size, 1);
});

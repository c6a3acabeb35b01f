/** QueryStringCache answers what parseQuery answers, keeps repeated strings, and keeps no credentials. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from './query.js';
import { MAX_CACHED_QUERY_STRING, QueryStringCache } from './query-cache.js';

const q = (text: string, extra = '') => `db=benchmark&q=${encodeURIComponent(text)}${extra}`;

test('QueryStringCache: hits return the first parse; misses and evictions equal parseQuery', () => {
  const cache = new QueryStringCache(2);
  const a = q('SELECT max(v) FROM cpu GROUP BY time(1m)');
  const first = cache.parse(a);
  assert.deepEqual(first, parseQuery(a));
  assert.equal(cache.parse(a), first);
  const b = q('SHOW DATABASES', '&epoch=ms');
  const c = q('SELECT 1');
  assert.deepEqual(cache.parse(b), parseQuery(b));
  cache.parse(a); // a is now the most recent: c evicts b
  assert.deepEqual(cache.parse(c), parseQuery(c));
  assert.equal(cache.size, 2);
  assert.equal(cache.parse(a), first);
  const again = cache.parse(b); // evicted: parsed anew
  assert.deepEqual(again, parseQuery(b));
  assert.equal(cache.parse(b), again);
});

test('QueryStringCache: credentials, passwords and long strings are never kept', () => {
  const cache = new QueryStringCache(8);
  for (const raw of [q('SHOW DATABASES', '&u=admin&p=secret'), q("CREATE USER bob WITH PASSWORD 'pw'"), q("SET PASSWORD FOR bob = 'x'"), q('SELECT ' + 'x'.repeat(MAX_CACHED_QUERY_STRING))]) {
    assert.deepEqual(cache.parse(raw), parseQuery(raw));
  }
  assert.deepEqual(cache.parse(undefined), new Map()); // a POST without a query string
  assert.deepEqual(cache.parse(''), new Map());
  assert.equal(cache.size, 0);
});

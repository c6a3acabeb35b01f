/** parseQuery gives the pairs URLSearchParams gives (first occurrence of a key wins), escapes and malformed text included. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseQuery } from './query.js';

function reference(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(raw)) if (!out.has(k)) out.set(k, v);
  return out;
}

const pieceArb = fc.oneof(
  fc.constantFrom('&', '=', '+', '%', '%2', '%20', '%3D', '%26', '%2B', '%C3%BC', '%E2%82%AC', '%FF', '%ED%A0%80', '%zz', 'q', 'db', 'SELECT', ' ', 'ü', '€'),
  fc.string({ maxLength: 3 }),
);

test('parseQuery equals URLSearchParams on random query strings', () => {
  fc.assert(
    fc.property(fc.array(pieceArb, { maxLength: 20 }), (pieces) => {
      const raw = pieces.join('');
      assert.deepEqual(parseQuery(raw), reference(raw), raw);
    }),
    { numRuns: 5000 },
  );
});

test('parseQuery: typical /query strings, empty parts, keys without values, repeated keys', () => {
  const q = `db=benchmark&q=${encodeURIComponent("SELECT max(v) FROM cpu WHERE host = 'h€' AND time >= now() - 1h")}&epoch=ms`;
  assert.deepEqual(parseQuery(q), reference(q));
  assert.equal(parseQuery(q).get('q'), "SELECT max(v) FROM cpu WHERE host = 'h€' AND time >= now() - 1h");
  assert.deepEqual([...parseQuery('a=1&&a=2&b&=x&c=a+b%2Bc')], [
    ['a', '1'],
    ['b', ''],
    ['', 'x'],
    ['c', 'a b+c'],
  ]);
  assert.equal(parseQuery(undefined).size, 0);
  assert.equal(parseQuery('').size, 0);
});

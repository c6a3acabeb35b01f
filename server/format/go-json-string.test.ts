/**
 * Strings in answers are Go's bytes: recorded from influxd 1.6.7 (04:2x UTC, 2026-11-28: a
 * string field and a tag with `<`, `>`, `&`, backspace, form feed and U+2028), and for any
 * string the same JSON value as JSON.stringify.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { goJsonString } from './go-json-string.js';

test("Go's escapes, as 1.6.7 answered them", () => {
  assert.equal(goJsonString('x<y>&z\b\f\u2028end'), '"x\\u003cy\\u003e\\u0026z\\u0008\\u000c\\u2028end"');
  assert.equal(goJsonString('a<b&c>d'), '"a\\u003cb\\u0026c\\u003ed"');
  assert.equal(goJsonString('\u2029'), '"\\u2029"');
});

test('a backslash before b or f stays an escaped backslash', () => {
  assert.equal(goJsonString('\\b\\f<'), '"\\\\b\\\\f\\u003c"');
});

test('any string: the same JSON value, and JSON.stringify text when nothing needs escaping', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', '<', '>', '&', '\\', '"', '\b', '\f', '\n', '\u0001', '\u2028', '\u2029', 'b', 'f', 'u', 'é') }), (s) => {
      const text = goJsonString(s);
      assert.equal(JSON.parse(text), s);
      if (!/[<>&\u2028\u2029\b\f]/.test(s)) assert.equal(text, JSON.stringify(s));
      assert.doesNotMatch(text, /[<>&\u2028\u2029]/);
    }),
    { numRuns: 2000 },
  );
});

test("a whole answer with such strings is 1.6.7's bytes", async () => {
  const { resultsToJson } = await import('./json.js');
  const body = resultsToJson(
    [{ statementId: 0, series: [{ name: 'm', columns: ['time', 's', 't'], values: [[1n, 'x<y>&z\b\f\u2028end', 'a<b&c>d']] }] }],
    { epoch: undefined, pretty: false },
  );
  assert.equal(body, '{"results":[{"statement_id":0,"series":[{"name":"m","columns":["time","s","t"],"values":[["1970-01-01T00:00:00.000000001Z","x\\u003cy\\u003e\\u0026z\\u0008\\u000c\\u2028end","a\\u003cb\\u0026c\\u003ed"]]}]}]}\n');
});

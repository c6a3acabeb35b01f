/** goQuote against texts Go's strconv.Quote gives (go1.10, as 1.6.7 was built with). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote } from './go-quote.js';

const CASES: [string, string][] = [
  ['m', '"m"'],
  ['a\\,b', '"a\\\\,b"'],
  ['a"b', '"a\\"b"'],
  ['tab\there', '"tab\\there"'],
  ['nl\n', '"nl\\n"'],
  ['\u0000\u001b\u007f', '"\\x00\\x1b\\x7f"'],
  ['héllo wörld', '"héllo wörld"'],
  ['日本', '"日本"'],
  ['\u00a0', '"\\u00a0"'],
  ['\u200b', '"\\u200b"'],
  ['😀', '"😀"'],
  ['\u{e0001}', '"\\U000e0001"'],
];

test('goQuote quotes as Go %q', () => {
  for (const [s, want] of CASES) assert.equal(goQuote(s), want, JSON.stringify(s));
});

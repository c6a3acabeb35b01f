import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeStrings, decodeStrings, STR_LZ4, STR_PLAIN } from './string.js';
import { assertCorrupt, blockOf } from './helpers.test.js';

function roundTrip(xs: readonly string[]): Uint8Array {
  const bytes = encodeStrings(xs, 0, xs.length);
  assert.deepEqual(decodeStrings(bytes, xs.length), [...xs]);
  return bytes;
}

// 'binary' covers every code point, astral planes included, but never a lone surrogate.
const str = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 10 }), fc.constantFrom('', 'ok', 'error: disk full'));

test('strings round-trip', () => {
  fc.assert(fc.property(blockOf(str, 200), (xs) => void roundTrip(xs)), { numRuns: 200 });
});

test('pinned: empty list, empty strings, unicode, long repetitive blocks compress', () => {
  roundTrip([]);
  roundTrip(['']);
  roundTrip(new Array<string>(1000).fill(''));
  assert.equal(roundTrip(['héllo', '日本語', '😀👍🏽', '\u0000', 'a\nb"c\\'])[0], STR_PLAIN);
  const logs = Array.from({ length: 1000 }, (_, i) => `GET /api/v1/items/${i % 10} 200 OK`);
  const bytes = roundTrip(logs);
  assert.equal(bytes[0], STR_LZ4);
  assert.ok(bytes.length < 3000, `${bytes.length} bytes for 1000 log lines`);
  roundTrip(['x'.repeat(100_000), '']);
});

test('lone surrogates are replaced by U+FFFD (not representable in UTF-8)', () => {
  const bytes = encodeStrings(['a\ud800b'], 0, 1);
  assert.deepEqual(decodeStrings(bytes, 1), ['a\ufffdb']);
});

test('corrupt input is CorruptionError', () => {
  for (const xs of [['abc', 'héllo'], Array.from({ length: 50 }, () => 'repeat me please')]) {
    const bytes = roundTrip(xs);
    for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeStrings(bytes.subarray(0, cut), xs.length));
  }
  assertCorrupt(() => decodeStrings(Uint8Array.of(9), 1));
  assertCorrupt(() => decodeStrings(Uint8Array.of(STR_LZ4, 1, 2, 3, 4, 5), 1));
  assertCorrupt(() => decodeStrings(Uint8Array.of(STR_LZ4, 0xff, 0xff, 0xff, 0x7f, 0x10, 0x41), 1));
});

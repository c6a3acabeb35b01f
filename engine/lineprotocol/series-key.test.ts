import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { measurementArb, tagsArb } from './arbitraries.test.js';
import { parseLineProtocolText } from './parse.js';
import {
  compareBytes,
  escapeFieldKey,
  escapeMeasurement,
  escapeStringValue,
  escapeTag,
  makeSeriesKey,
  parseSeriesKey,
  unescapeFieldKey,
  unescapeMeasurement,
  unescapeStringValue,
  unescapeTag,
} from './series-key.js';

const OPTS = { precision: 'ns' as const, defaultSec: 0, defaultNsec: 0 };

test('escaping per element, as 1.x line protocol', () => {
  assert.equal(escapeMeasurement('a b,c=d"e\\f'), 'a\\ b\\,c=d"e\\f');
  assert.equal(escapeTag('a b,c=d"e\\f'), 'a\\ b\\,c\\=d"e\\f');
  assert.equal(escapeFieldKey('a b,c=d"e\\f'), 'a\\ b\\,c\\=d\\"e\\f');
  assert.equal(escapeStringValue('a"b\\c d,e=f'), 'a\\"b\\\\c d,e=f');
  assert.equal(escapeTag('plain'), 'plain');
  assert.equal(unescapeMeasurement('a\\ b\\,c\\=d'), 'a b,c\\=d');
  assert.equal(unescapeTag('a\\ b\\,c\\=d\\"e\\\\f'), 'a b,c=d\\"e\\\\f');
  assert.equal(unescapeFieldKey('a\\ b\\,c\\=d\\"e\\f'), 'a b,c=d"e\\f');
  assert.equal(unescapeStringValue('x\\"y\\\\z\\n', 0, 10), 'x"y\\z\\n');
});

test('unescape inverts escape for any string', () => {
  const any = fc.string({ unit: fc.constantFrom(',', '=', ' ', '"', '\\', 'a', '😀') });
  fc.assert(
    fc.property(any, (s) => {
      assert.equal(unescapeMeasurement(escapeMeasurement(s)), s);
      assert.equal(unescapeTag(escapeTag(s)), s);
      assert.equal(unescapeFieldKey(escapeFieldKey(s)), s);
      const e = escapeStringValue(s);
      assert.equal(unescapeStringValue(e, 0, e.length), s);
    }),
  );
});

test('compareBytes is UTF-8 byte order', () => {
  const chars = fc.string({ unit: fc.constantFrom('a', 'Z', '\u{7f}', 'é', '\u{D7FF}', '\u{E000}', '\u{FFFF}', '😀', '𝄞'), maxLength: 4 });
  fc.assert(
    fc.property(chars, chars, (a, b) => {
      assert.equal(compareBytes(a, b), Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }),
  );
  assert.equal(compareBytes('\u{E000}', '😀'), -1); // plain `<` says the opposite
});

test('makeSeriesKey sorts, escapes and drops empty tag values; parseSeriesKey inverts it', () => {
  const key = makeSeriesKey('disk io', [{ key: 'z', value: 'x' }, { key: 'dev', value: 'sd a' }, { key: 'e', value: '' }]);
  assert.equal(key, 'disk\\ io,dev=sd\\ a,z=x');
  assert.deepEqual(parseSeriesKey(key), { measurement: 'disk io', tags: [{ key: 'dev', value: 'sd a' }, { key: 'z', value: 'x' }] });
  assert.deepEqual(parseSeriesKey('cpu'), { measurement: 'cpu', tags: [] });
  assert.throws(() => parseSeriesKey('cpu,novalue'), /malformed series key/);
  fc.assert(
    fc.property(measurementArb, tagsArb, (m, tags) => {
      const parsed = parseSeriesKey(makeSeriesKey(m, tags));
      assert.equal(parsed.measurement, m);
      assert.deepEqual(parsed.tags, [...tags].sort((x, y) => compareBytes(x.key, y.key)));
    }),
  );
});

test('property: equal series give byte-identical keys whatever the tag order in the line', () => {
  fc.assert(
    fc.property(measurementArb, tagsArb, fc.infiniteStream(fc.nat()), (m, tags, rnd) => {
      const shuffled = [...tags];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = rnd.next().value % (i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      const line = escapeMeasurement(m) + shuffled.map((t) => `,${escapeTag(t.key)}=${escapeTag(t.value)}`).join('') + ' v=1 1';
      const r = parseLineProtocolText(line, OPTS);
      assert.deepEqual(r.errors, []);
      assert.equal(r.points[0]!.seriesKey, makeSeriesKey(m, tags));
    }),
    { numRuns: 2000 },
  );
});

test('equivalent spellings of one series give the same key', () => {
  const keys = ['cpu,a==x,b=y v=1', 'cpu,b=y,a=\\=x v=1', 'cpu,a=\\=x,b=y v=1'].map((l) => parseLineProtocolText(l, OPTS).points[0]!.seriesKey);
  assert.deepEqual(keys, ['cpu,a=\\=x,b=y', 'cpu,a=\\=x,b=y', 'cpu,a=\\=x,b=y']);
});

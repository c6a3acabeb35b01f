/**
 * Measurement names holding a backslash, as InfluxDB 1.6.7 keys and indexes them (key.ts
 * measurementNames). Every row was written to a fresh 1.6.7 on loopback and read back with
 * SHOW MEASUREMENTS (the indexed name), SHOW SERIES (the key) and SHOW FIELD KEYS / SELECT *
 * (whether the fields are read): the name its fields go under is the one its own error texts
 * print (`input tag "time" on measurement ...`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseKey } from './key.js';
import { parseLineProtocolText } from './parse.js';
import { escapeMeasurement, pointName } from './series-key.js';

/** [written measurement, indexed name, series key, name of the fields when not the indexed one] */
const NAMES: [string, string, string, string | undefined][] = [
  ['plain', 'plain', 'plain', undefined],
  ['a\\,b', 'a,b', 'a\\,b', undefined],
  ['a\\ b', 'a b', 'a\\ b', undefined],
  ['a\\=b', 'a=b', 'a=b', undefined],
  ['a\\"b', 'a"b', 'a"b', undefined],
  ['a\\b', 'a\\b', 'a\\b', undefined],
  ['a\\\\b', 'a\\\\b', 'a\\\\b', undefined],
  ['a\\\\\\\\,x', 'a\\\\,x', 'a\\\\\\,x', 'a\\\\\\,x'],
  // An escaped backslash before a separator: 1.x's scanner reads `\\,` as an escaped comma too.
  ['a\\\\,b', 'a,b', 'a\\,b', 'a\\,b'],
  ['a\\\\ b', 'a b', 'a\\ b', 'a\\ b'],
  ['a\\\\=b', 'a=b', 'a\\=b', 'a\\=b'],
  ['a\\\\"b', 'a"b', 'a\\"b', 'a\\"b'],
  ['a\\\\\\,b', 'a\\,b', 'a\\\\,b', 'a\\\\,b'],
  ['a\\\\\\ b', 'a\\ b', 'a\\\\ b', 'a\\\\ b'],
  ['a\\\\\\=b', 'a\\=b', 'a\\\\=b', 'a\\\\=b'],
  ['a\\\\,t=1', 'a,t=1', 'a\\,t=1', 'a\\,t=1'],
  ['\\\\,a', ',a', '\\,a', '\\,a'],
];

test('a written measurement gives 1.6.7 its indexed name, series key and field owner', () => {
  for (const [written, indexed, key, fields] of NAMES) {
    const info = parseKey(`${written},t=x`, 0, written.length + 4, false);
    assert.ok(typeof info !== 'string', `${written}: ${String(info)}`);
    assert.deepEqual([info.measurement, info.seriesKey, info.fieldMeasurement], [indexed, `${key},t=x`, fields], written);
  }
});

const OPTS = { precision: 'ns' as const, defaultSec: 0, defaultNsec: 0 };

test('a line whose fields 1.x files under another name leaves its series only, without an error text', () => {
  const r = parseLineProtocolText('a\\\\,b v=1 1\nm v=2 2\na\\\\ b,t=x w=3i,time=4 3', OPTS);
  assert.deepEqual(r.points.map((p) => p.seriesKey), ['m']);
  assert.deepEqual(
    r.errors.map((e) => [e.refused, e.reason, e.series?.seriesKey, e.series?.measurement, e.series?.sec]),
    [
      ['unlisted-fields', '', 'a\\,b', 'a,b', 0],
      ['unlisted-fields', '', 'a\\ b,t=x', 'a b', 0],
    ],
  );
});

test('refusals of such a line print the name its fields go under, as 1.6.7 does', () => {
  const r = parseLineProtocolText('a\\\\,b time=1 1\na\\\\,b,time=1 v=1 1', OPTS);
  assert.deepEqual(
    r.errors.map((e) => [e.refused, e.reason, e.series?.measurement]),
    [
      ['time-field', 'invalid field name: input field "time" on measurement "a\\,b" is invalid', 'a,b'],
      ['time-tag', 'invalid tag key: input tag "time" on measurement "a\\,b" is invalid', undefined],
    ],
  );
});

test('a point made from a name (SELECT ... INTO) is listed under the name 1.6.7 lists', () => {
  const rows: [string, string][] = [
    ['plain', 'plain'],
    ['a\\,b', 'a,b'],
    ['c\\ d', 'c d'],
    ['e\\=f', 'e=f'],
    ['g\\\\h', 'g\\\\h'],
    ['a,b', 'a,b'],
  ];
  for (const [name, listed] of rows) {
    assert.equal(pointName(name), listed, name);
    // Written as line protocol (the WAL's form), the listed name reads back as itself.
    const info = parseKey(escapeMeasurement(listed), 0, escapeMeasurement(listed).length, false);
    assert.ok(typeof info !== 'string');
    assert.deepEqual([info.measurement, info.fieldMeasurement], [listed, undefined], name);
  }
});

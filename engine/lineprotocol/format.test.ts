import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType } from '../point.js';
import type { Point } from '../point.js';
import { pointArb } from './arbitraries.test.js';
import { LineProtocolError } from './errors.js';
import { formatPoint, formatTimestampNs } from './format.js';
import { parseLineProtocol, parseLineProtocolText } from './parse.js';

const OPTS = { precision: 'ns' as const, defaultSec: 0, defaultNsec: 0 };

test('formatTimestampNs: exact decimal nanoseconds, also negative and at the limits', () => {
  const cases: [number, number, string][] = [
    [0, 0, '0'],
    [0, 5, '5'],
    [1, 0, '1000000000'],
    [1451606400, 0, '1451606400000000000'],
    [1, 5, '1000000005'],
    [-1, 0, '-1000000000'],
    [-1, 999_999_999, '-1'],
    [-1, 1, '-999999999'],
    [-2, 500_000_000, '-1500000000'],
    [9223372036, 854775806, '9223372036854775806'],
    [-9223372037, 145224194, '-9223372036854775806'],
  ];
  for (const [sec, nsec, text] of cases) {
    assert.equal(formatTimestampNs(sec, nsec), text);
    assert.equal(BigInt(text), BigInt(sec) * 1_000_000_000n + BigInt(nsec));
  }
});

test('formatPoint: escaping, suffixes and -0', () => {
  const p: Point = {
    seriesKey: 'c\\ m,t\\=k=v\\,1',
    measurement: 'c m',
    tags: [{ key: 't=k', value: 'v,1' }],
    fields: [
      { key: 'f 1', type: FieldType.Float, value: -0 },
      { key: 'i', type: FieldType.Integer, value: -(2n ** 63n) },
      { key: 'u', type: FieldType.Unsigned, value: 2n ** 64n - 1n },
      { key: 'b', type: FieldType.Boolean, value: false },
      { key: 'q"', type: FieldType.String, value: 'say "hi" \\ bye\n' },
      { key: 'x', type: FieldType.Float, value: 1e21 },
    ],
    sec: -1,
    nsec: 1,
  };
  assert.equal(
    formatPoint(p),
    'c\\ m,t\\=k=v\\,1 f\\ 1=-0,i=-9223372036854775808i,u=18446744073709551615u,b=false,q\\"="say \\"hi\\" \\\\ bye\n",x=1e+21 -999999999',
  );
  assert.throws(() => formatPoint({ ...p, fields: [{ key: 'v', type: FieldType.Float, value: NaN }] }), LineProtocolError);
  assert.throws(() => formatPoint({ ...p, fields: [{ key: 'v', type: FieldType.Float, value: -Infinity }] }), LineProtocolError);
});

test('property: formatPoint → parse gives the identical point (bit-exact values)', () => {
  fc.assert(
    fc.property(pointArb, (p) => {
      const r = parseLineProtocolText(formatPoint(p), OPTS);
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.points, [p]);
    }),
    { numRuns: 3000 },
  );
});

test('property: a batch of formatted points round-trips through UTF-8 bytes, with CRLF and a leading space', () => {
  fc.assert(
    fc.property(fc.array(pointArb, { minLength: 1, maxLength: 8 }), fc.boolean(), (ps, crlf) => {
      const text = ps.map((p) => ' ' + formatPoint(p)).join(crlf ? '\r\n' : '\n');
      const r = parseLineProtocol(new TextEncoder().encode(text), OPTS);
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.points, ps);
    }),
    { numRuns: 500 },
  );
});

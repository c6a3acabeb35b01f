/** parseTimeString's fast path for `YYYY-MM-DDTHH:MM:SSZ` reads every such string as the general RFC 3339 path does. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../engine/index.js';
import { parseExpr } from '../parser/query.js';
import { evalTime, parseTimeString, rfc3339Ns } from './time-literal.js';

test('20-character UTC seconds: the same value as the general path, also out of range and malformed', () => {
  const r = mulberry32(1127);
  const digits = (n: number, max: number): string => String(Math.floor(r() * max)).padStart(n, '0');
  const samples = ['2016-01-01T05:17:00Z', '1970-01-01T00:00:00Z', '0000-01-01T00:00:00Z', '0099-12-31T23:59:59Z', '9999-12-31T23:59:59Z',
    '2016-13-01T00:00:00Z', '2016-00-00T00:00:00Z', '2016-02-30T24:60:60Z', '2016-01-01t05:17:00z', '2016-01-01 05:17:00Z',
    '2016-01-01T05:17:0AZ', '2016/01/01T05:17:00Z', '2016-01-01T05:17:00+', ' 016-01-01T05:17:00Z', '2016-01-01T05:17:00Z '];
  for (let i = 0; i < 20_000; i++) {
    const s = `${digits(4, 10_000)}-${digits(2, 100)}-${digits(2, 100)}T${digits(2, 100)}:${digits(2, 100)}:${digits(2, 100)}Z`;
    samples.push(s);
    const at = Math.floor(r() * s.length);
    samples.push(s.slice(0, at) + String.fromCharCode(32 + Math.floor(r() * 95)) + s.slice(at + 1));
  }
  for (const s of samples) assert.equal(parseTimeString(s), rfc3339Ns(s), s);
  assert.equal(parseTimeString('2016-01-01T05:17:00Z'), 1451625420000000000n);
});

test('a time sum with a side that is no time is refused as the BinaryExpr 1.x leaves unreduced (texts recorded from 1.6.7)', () => {
  const refused = (text: string): string => {
    try {
      return String(evalTime(parseExpr(text), 0n));
    } catch (e) {
      return (e as Error).message;
    }
  };
  const binary = 'invalid operation: time and *influxql.BinaryExpr are not compatible';
  for (const text of ["now() - '1h'", "'x' + 1h", 'now() - v', 'now() - true', "now() - (1h + 'x')", "'2024-13-45' + 1h", "'2024-03-09T00:00:00Z' + 1h + 'x'"]) {
    assert.equal(refused(text), binary, text);
  }
  assert.equal(refused("'1h'"), 'invalid operation: time and *influxql.StringLiteral are not compatible');
  assert.equal(refused("'2024-13-45'"), 'invalid timestamp string');
  assert.equal(refused("'1970-01-01T00:00:01Z' + 1s"), '2000000000');
});

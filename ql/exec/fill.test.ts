import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import { fillSeries } from './fill.js';
import type { FillOptions } from './fill.js';
import { MIN_TIME, window, windowSpec } from './window.js';
import type { Scalar, TimedValue } from './value.js';

const MS = 1_000_000n;
const S = 1_000_000_000n;
const H = 3600n * S;
const D = 24n * H;
const ns = (iso: string): bigint => BigInt(Date.parse(iso)) * MS;
const rows = (...r: [bigint, Scalar][]): TimedValue[] => r.map(([time, value]) => ({ time, value }));
const values = (r: TimedValue[]): Scalar[] => r.map((x) => x.value);

// Oracle data set `ii`: (0s,1) (15s,3) (25s,2) (70s,5); WHERE time >= 0s AND time < 100s GROUP BY time(10s).
const tenSec = windowSpec(10n * S);
const base: Omit<FillOptions, 'mode' | 'valueType'> = { window: tenSec, startNs: 0n, endNs: 100n * S - 1n };
const meanRows = rows([0n, 1], [10n * S, 3], [20n * S, 2], [70n * S, 5]);

describe('fill (1.x fill iterator)', () => {
  it('linear, float values (oracle mean(v) fill(linear))', () => {
    const out = fillSeries(meanRows, { ...base, mode: 'linear', valueType: FieldType.Float });
    assert.deepEqual(out.map((r) => r.time), Array.from({ length: 10 }, (_, i) => BigInt(i) * 10n * S));
    assert.deepEqual(values(out), [1, 3, 2, 2.6, 3.2, 3.8, 4.4, 5, null, null]);
  });
  it('linear, integer values truncate (oracle max(v) fill(linear))', () => {
    const out = fillSeries(meanRows, { ...base, mode: 'linear', valueType: FieldType.Integer });
    assert.deepEqual(values(out), [1, 3, 2, 2, 3, 3, 4, 5, null, null]);
  });
  it('number fill casts to the field type (oracle fill(1.7) on integers, fill(2) on floats)', () => {
    assert.deepEqual(values(fillSeries(meanRows, { ...base, mode: 'number', value: 1.7, valueType: FieldType.Integer })), [1, 3, 2, 1, 1, 1, 1, 5, 1, 1]);
    assert.deepEqual(values(fillSeries(meanRows, { ...base, mode: 'number', value: 2, valueType: FieldType.Float })), [1, 3, 2, 2, 2, 2, 2, 5, 2, 2]);
  });
  it('previous carries the last real value (oracle)', () => {
    assert.deepEqual(values(fillSeries(meanRows, { ...base, mode: 'previous', valueType: FieldType.Integer })), [1, 3, 2, 2, 2, 2, 2, 5, 5, 5]);
  });
  it('null, and count turns fill(null) into 0', () => {
    assert.deepEqual(values(fillSeries(meanRows, { ...base, mode: 'null', valueType: FieldType.Float })), [1, 3, 2, null, null, null, null, 5, null, null]);
    assert.deepEqual(values(fillSeries(meanRows, { ...base, mode: 'null', valueType: FieldType.Integer, call: 'count' })), [1, 3, 2, 0, 0, 0, 0, 5, 0, 0]);
  });
  it('none and empty series produce no filled rows', () => {
    assert.deepEqual(fillSeries(meanRows, { ...base, mode: 'none', valueType: FieldType.Float }), meanRows);
    assert.deepEqual(fillSeries([], { ...base, mode: 'null', valueType: FieldType.Float }), []);
  });
  it('leading windows: previous/linear are null before the first real row', () => {
    const r = rows([30n * S, 4], [50n * S, 8]);
    const o = { window: tenSec, startNs: 0n, endNs: 60n * S - 1n, valueType: FieldType.Float } as const;
    assert.deepEqual(values(fillSeries(r, { ...o, mode: 'previous' })), [null, null, null, 4, 4, 8]);
    assert.deepEqual(values(fillSeries(r, { ...o, mode: 'linear' })), [null, null, null, 4, 6, 8]);
  });
  it('without a lower bound the first window is the first row\'s', () => {
    const out = fillSeries(rows([30n * S, 4], [50n * S, 8]), { window: tenSec, endNs: 60n * S - 1n, mode: 'null', valueType: FieldType.Float });
    assert.deepEqual(out.map((r) => r.time), [30n * S, 40n * S, 50n * S]);
  });
  it('the clamped first window is 0 to the fill: rows up to 1970 pass through (oracle a4-clamped-first-window)', () => {
    // count(v) ... WHERE time < 6000d GROUP BY time(1000d): windows MinTime (1.x's 0), 1679-10-13, 1967-04-07, 0.
    const k = 1000n * D;
    const first = window(-9223372036000000000n, windowSpec(k)).start;
    assert.equal(first, MIN_TIME);
    const counts = rows([first, 4], [-106n * k, 1], [-k, 1], [0n, 2]);
    const out = fillSeries(counts, { window: windowSpec(k), endNs: 6n * k - 1n, mode: 'null', valueType: FieldType.Integer, call: 'count' });
    assert.deepEqual(out.map((r) => r.time), [first, -106n * k, -k, 0n, 4n * k, 5n * k]);
    assert.deepEqual(values(out), [4, 1, 1, 2, 0, 0]);
    // ORDER BY time DESC: below 1679 the step wraps int64, and the fill runs from there down to 0.
    const desc = fillSeries([...counts.slice(0, 3)].reverse(), { window: windowSpec(k), endNs: -1n, mode: 'null', valueType: FieldType.Integer, call: 'count', descending: true });
    assert.equal(desc.length, 214);
    // 1.6.7 prints that last filled row as 1971-05-19T23:34:33.709551616Z.
    assert.deepEqual(desc.at(-2), { time: BigInt.asIntN(64, -213n * k), value: 0 });
    assert.deepEqual(desc.at(-1), { time: first, value: 4 });
  });
  it('descending order, linear and previous (oracle ORDER BY time DESC)', () => {
    const desc = [...meanRows].reverse();
    const o = { ...base, valueType: FieldType.Float, descending: true } as const;
    assert.deepEqual(values(fillSeries(desc, { ...o, mode: 'linear' })), [null, null, 5, 4.4, 3.8, 3.2, 2.6, 2, 3, 1]);
    assert.deepEqual(values(fillSeries(desc, { ...o, mode: 'previous', valueType: FieldType.Integer })), [null, null, 5, 5, 5, 5, 5, 2, 3, 1]);
  });
  it('descending order', () => {
    const out = fillSeries(rows([50n * S, 8], [30n * S, 4]), { window: tenSec, startNs: 20n * S, endNs: 60n * S - 1n, mode: 'previous', valueType: FieldType.Float, descending: true });
    assert.deepEqual(out, rows([50n * S, 8], [40n * S, 8], [30n * S, 4], [20n * S, 4]));
  });
  it('conformance fill-linear-float / fill-previous (hourly, trailing gap)', () => {
    const r = rows(...([[0, 20.5], [1, 21], [2, 30], [3, 31.5], [4, 19.25], [5, 18], [9, 27.25]] as const).map(([h, v]) => [ns('2024-03-09T00:00:00Z') + BigInt(h) * H, v] as [bigint, Scalar]));
    const o = { window: windowSpec(H), startNs: ns('2024-03-09T00:00:00Z'), endNs: ns('2024-03-09T10:00:00Z') - 1n, valueType: FieldType.Float } as const;
    assert.deepEqual(values(fillSeries(r, { ...o, mode: 'linear' })), [20.5, 21, 30, 31.5, 19.25, 18, 20.3125, 22.625, 24.9375, 27.25]);
    assert.deepEqual(values(fillSeries(r, { ...o, mode: 'previous' })), [20.5, 21, 30, 31.5, 19.25, 18, 18, 18, 18, 27.25]);
  });
  it('TZ + offset across DST replays the 1.x quirk (oracle count … GROUP BY time(1d,3h) TZ(America/New_York))', () => {
    const spec = windowSpec(D, 3n * H, 'America/New_York');
    const r = rows([ns('2024-03-08T08:00:00Z'), 8], [ns('2024-03-09T08:00:00Z'), 24], [ns('2024-03-10T08:00:00Z'), 23], [ns('2024-03-11T07:00:00Z'), 5]);
    const out = fillSeries(r, { window: spec, startNs: ns('2024-03-09T00:00:00Z'), endNs: ns('2024-03-11T12:00:00Z') - 1n, mode: 'null', call: 'count', valueType: FieldType.Integer });
    assert.deepEqual(out, rows([ns('2024-03-08T08:00:00Z'), 8], [ns('2024-03-09T08:00:00Z'), 24], [ns('2024-03-10T07:00:00Z'), 0], [ns('2024-03-10T08:00:00Z'), 23], [ns('2024-03-11T07:00:00Z'), 5]));
  });
  it('linear fill on strings is null; number fill on strings is the zero value', () => {
    const r = rows([0n, 'a'], [20n * S, 'b']);
    const o = { window: tenSec, startNs: 0n, endNs: 30n * S - 1n, valueType: FieldType.String } as const;
    assert.deepEqual(values(fillSeries(r, { ...o, mode: 'linear' })), ['a', null, 'b']);
    assert.deepEqual(values(fillSeries(r, { ...o, mode: 'number', value: 0 })), ['a', '', 'b']);
  });
  it('guards runaway enumerations with a typed error', () => {
    assert.throws(() => fillSeries(meanRows, { ...base, endNs: 10n ** 18n, mode: 'null', valueType: FieldType.Float, maxRows: 1000 }), /max-select-buckets/);
  });
});

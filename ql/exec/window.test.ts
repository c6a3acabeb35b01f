import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bucketStart, buckets, forEachWindowRun, normalizeOffset, window, windowSpec } from './window.js';
import { UnknownTimeZoneError } from './errors.js';
import { zoneOffsetSec } from './zone.js';

const MS = 1_000_000n;
const S = 1_000_000_000n;
const M = 60n * S;
const H = 60n * M;
const D = 24n * H;
const W = 7n * D;
/** RFC 3339 (any offset) to ns. */
const ns = (iso: string): bigint => BigInt(Date.parse(iso)) * MS;
const isoOf = (t: bigint): string => new Date(Number(t / MS)).toISOString().replace('.000Z', 'Z');

describe('window: epoch alignment and offsets', () => {
  it('aligns to the epoch', () => {
    assert.equal(bucketStart(ns('2024-03-09T10:37:12Z'), H, 0n), ns('2024-03-09T10:00:00Z'));
    assert.equal(bucketStart(0n, H, 0n), 0n);
    assert.equal(bucketStart(-1n, H, 0n), -H);
    assert.equal(bucketStart(ns('1969-12-31T23:30:00Z'), H, 0n), ns('1969-12-31T23:00:00Z'));
  });
  it('week buckets start on Thursday (1970-01-01) — conformance labels', () => {
    const labels = buckets(ns('2024-03-01T00:00:00Z'), ns('2024-03-20T00:00:00Z') - 1n, windowSpec(W)).map(isoOf);
    assert.deepEqual(labels, ['2024-02-29T00:00:00Z', '2024-03-07T00:00:00Z', '2024-03-14T00:00:00Z']);
    assert.equal(new Date(Number(bucketStart(ns('2024-03-10T12:00:00Z'), W, 0n) / MS)).getUTCDay(), 4);
  });
  it('reduces offsets modulo the interval with Go % (sign kept; negative and larger than interval)', () => {
    assert.equal(normalizeOffset(-15n * M, H), -15n * M);
    assert.equal(normalizeOffset(75n * M, H), 15n * M);
    assert.equal(normalizeOffset(-75n * M, H), -15n * M);
    assert.equal(normalizeOffset(35n * S, 10n * S), 5n * S);
    // Without a zone the sign does not matter.
    const t = ns('2024-03-09T10:37:12Z');
    assert.equal(window(t, windowSpec(H, -15n * M)).start, window(t, windowSpec(H, 45n * M)).start);
  });
  it('offset buckets (oracle: time(1h,-15m), time(1h,75m), time(1m,-30s))', () => {
    const t = ns('2024-03-09T00:00:00Z');
    assert.equal(isoOf(window(t, windowSpec(H, -15n * M)).start), '2024-03-08T23:45:00Z');
    assert.equal(isoOf(window(t, windowSpec(H, 75n * M)).start), '2024-03-08T23:15:00Z');
    const labels = buckets(ns('2024-03-09T10:00:00Z'), ns('2024-03-09T10:05:00Z') - 1n, windowSpec(M, -30n * S)).map(isoOf);
    assert.deepEqual(labels, ['2024-03-09T09:59:30Z', '2024-03-09T10:00:30Z', '2024-03-09T10:01:30Z', '2024-03-09T10:02:30Z', '2024-03-09T10:03:30Z', '2024-03-09T10:04:30Z']);
  });
  it('upstream offset cases: time(10s,5s) == time(10s,35s)', () => {
    for (const off of [5n * S, 35n * S]) {
      const labels = buckets(ns('1999-12-31T23:59:55Z'), ns('2000-01-01T00:00:15Z') - 1n, windowSpec(10n * S, off)).map(isoOf);
      assert.deepEqual(labels, ['1999-12-31T23:59:55Z', '2000-01-01T00:00:05Z']);
    }
  });
  it('window end is start + interval without a zone', () => {
    const w = window(ns('2024-03-09T10:37:12Z'), windowSpec(10n * M, 3n * M));
    assert.equal(isoOf(w.start), '2024-03-09T10:33:00Z');
    assert.equal(w.end - w.start, 10n * M);
  });
});

describe('window: time zones (DST-correct, as 1.x)', () => {
  it('knows zone offsets', () => {
    assert.equal(zoneOffsetSec('America/New_York', Date.parse('2024-03-10T06:59:59Z') / 1000), -5 * 3600);
    assert.equal(zoneOffsetSec('America/New_York', Date.parse('2024-03-10T07:00:00Z') / 1000), -4 * 3600);
    assert.equal(zoneOffsetSec('Asia/Kolkata', 0), 19800);
    assert.equal(zoneOffsetSec('UTC', 0), 0);
  });
  it('unknown zone is a typed error with the 1.x text', () => {
    assert.throws(() => windowSpec(D, 0n, 'Nope/Zone'), (e: unknown) => e instanceof UnknownTimeZoneError && e.message === 'unable to find time zone Nope/Zone');
    assert.throws(() => windowSpec(D, 0n, 'america/new_york'), UnknownTimeZoneError);
  });
  it('America/New_York 2024-03-10 is a 23h day bucket (oracle labels)', () => {
    const spec = windowSpec(D, 0n, 'America/New_York');
    const labels = buckets(ns('2024-03-09T00:00:00Z'), ns('2024-03-12T12:00:00Z') - 1n, spec);
    assert.deepEqual(labels.map(isoOf), ['2024-03-08T05:00:00Z', '2024-03-09T05:00:00Z', '2024-03-10T05:00:00Z', '2024-03-11T04:00:00Z', '2024-03-12T04:00:00Z']);
    const w = window(ns('2024-03-10T12:00:00Z'), spec);
    assert.equal(isoOf(w.start), '2024-03-10T05:00:00Z');
    assert.equal(w.end - w.start, 23n * H);
  });
  it('Europe/Paris 2024-03-31 is 23h, 2024-10-27 is 25h', () => {
    const spec = windowSpec(D, 0n, 'Europe/Paris');
    const spring = window(ns('2024-03-31T12:00:00Z'), spec);
    assert.equal(isoOf(spring.start), '2024-03-30T23:00:00Z');
    assert.equal(spring.end - spring.start, 23n * H);
    const fall = window(ns('2024-10-27T12:00:00Z'), spec);
    assert.equal(isoOf(fall.start), '2024-10-26T22:00:00Z');
    assert.equal(fall.end - fall.start, 25n * H);
    const labels = buckets(ns('2024-10-25T00:00:00Z'), ns('2024-10-30T00:00:00Z') - 1n, spec).map(isoOf);
    assert.deepEqual(labels, ['2024-10-24T22:00:00Z', '2024-10-25T22:00:00Z', '2024-10-26T22:00:00Z', '2024-10-27T23:00:00Z', '2024-10-28T23:00:00Z', '2024-10-29T23:00:00Z']);
  });
  it('hourly buckets across the NY spring-forward (oracle)', () => {
    const labels = buckets(ns('2024-03-10T04:00:00Z'), ns('2024-03-10T09:00:00Z') - 1n, windowSpec(H, 0n, 'America/New_York')).map(isoOf);
    assert.deepEqual(labels, ['2024-03-10T04:00:00Z', '2024-03-10T05:00:00Z', '2024-03-10T06:00:00Z', '2024-03-10T07:00:00Z', '2024-03-10T08:00:00Z']);
  });
  it('12h buckets: the DST half-day is 11h (oracle)', () => {
    const labels = buckets(ns('2024-03-09T00:00:00Z'), ns('2024-03-11T12:00:00Z') - 1n, windowSpec(12n * H, 0n, 'America/New_York')).map(isoOf);
    assert.deepEqual(labels, ['2024-03-08T17:00:00Z', '2024-03-09T05:00:00Z', '2024-03-09T17:00:00Z', '2024-03-10T05:00:00Z', '2024-03-10T16:00:00Z', '2024-03-11T04:00:00Z']);
  });
  it('1d with 3h offset across DST: 1.x enumerates 03:00 EDT while data windows start 04:00 EDT (oracle)', () => {
    const spec = windowSpec(D, 3n * H, 'America/New_York');
    const labels = buckets(ns('2024-03-09T00:00:00Z'), ns('2024-03-11T12:00:00Z') - 1n, spec).map(isoOf);
    assert.deepEqual(labels, ['2024-03-08T08:00:00Z', '2024-03-09T08:00:00Z', '2024-03-10T07:00:00Z', '2024-03-11T07:00:00Z']);
    assert.equal(isoOf(window(ns('2024-03-10T08:00:00Z'), spec).start), '2024-03-10T08:00:00Z');
    assert.equal(isoOf(window(ns('2024-03-10T07:30:00Z'), spec).start), '2024-03-09T08:00:00Z');
  });
  it('Asia/Kolkata half-hour offset (conformance labels)', () => {
    const labels = buckets(ns('2024-03-08T18:30:00Z'), ns('2024-03-10T18:30:00Z') - 1n, windowSpec(D, 0n, 'Asia/Kolkata')).map(isoOf);
    assert.deepEqual(labels, ['2024-03-08T18:30:00Z', '2024-03-09T18:30:00Z']);
  });
  it('upstream America/Los_Angeles 2000 DST days (conformance labels)', () => {
    const la = windowSpec(D, 0n, 'America/Los_Angeles');
    assert.deepEqual(buckets(ns('2000-04-02T00:00:00-08:00'), ns('2000-04-04T00:00:00-07:00') - 1n, la).map(isoOf), ['2000-04-02T08:00:00Z', '2000-04-03T07:00:00Z']);
    assert.deepEqual(buckets(ns('2000-10-29T00:00:00-07:00'), ns('2000-10-31T00:00:00-08:00') - 1n, la).map(isoOf), ['2000-10-29T07:00:00Z', '2000-10-30T08:00:00Z']);
    const hourly = buckets(ns('2000-04-02T01:00:00-08:00'), ns('2000-04-02T04:00:00-07:00') - 1n, windowSpec(H, 0n, 'America/Los_Angeles'));
    assert.deepEqual(hourly.map(isoOf), ['2000-04-02T09:00:00Z', '2000-04-02T10:00:00Z']);
  });
});

describe('window: batch fast path', () => {
  it('runs equal per-point windows, including negative times and a base far from 0', () => {
    const spec = windowSpec(10n * S, 3n * S, 'Europe/Paris');
    for (const base of [ns('2024-03-31T00:59:50Z'), -123456789012345678n, 0n]) {
      const offsets = Float64Array.from([0, 1e9, 2.5e9, 9e9, 13e9, 13e9 + 1, 40e9, 41e9, 1e14]);
      const seen: number[] = [];
      forEachWindowRun(base, offsets, 1, offsets.length, spec, (start, end, from, to) => {
        for (let i = from; i < to; i++) {
          const t = base + BigInt(offsets[i] as number);
          const w = window(t, spec);
          assert.equal(w.start, start);
          assert.equal(w.end, end);
          seen.push(i);
        }
      });
      assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8]);
    }
  });
  it('one run when the window is wider than 2^53 ns', () => {
    const runs: number[][] = [];
    forEachWindowRun(5n, Float64Array.from([0, 1, 2 ** 52]), 0, 3, windowSpec(1000n * W), (_s, _e, f, t) => runs.push([f, t]));
    assert.deepEqual(runs, [[0, 3]]);
  });
});

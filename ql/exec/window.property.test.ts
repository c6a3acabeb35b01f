import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType } from '../../engine/index.js';
import { buckets, certainlyMoreWindows, forEachWindowRun, window, windowSpec } from './window.js';
import { fillSeries } from './fill.js';
import type { TimedValue } from './value.js';

const H = 3_600_000_000_000n;
const intervalArb = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.constantFrom(H, 24n * H, 7n * 24n * H));
const zoneArb = fc.constantFrom(undefined, 'America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'Australia/Lord_Howe');

describe('window properties', () => {
  it('batch runs assign every point to window(t)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        // Sparse points, and dense ones that fall in adjacent windows of small intervals.
        fc.oneof(fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: 1, maxLength: 30 }), fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 30 })),
        fc.oneof(intervalArb, fc.bigInt({ min: 1n, max: 500n })),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        zoneArb,
        (base, rawOffs, interval, offset, tz) => {
          const spec = windowSpec(tz === undefined ? interval : interval < H ? H : interval, offset, tz);
          const offsets = Float64Array.from([...rawOffs].sort((a, b) => a - b));
          let next = 0;
          forEachWindowRun(base, offsets, 0, offsets.length, spec, (start, end, from, to) => {
            assert.equal(from, next);
            assert.ok(to > from);
            for (let i = from; i < to; i++) {
              const t = base + BigInt(offsets[i] as number);
              const w = window(t, spec);
              assert.equal(w.start, start);
              assert.equal(w.end, end);
              assert.ok(start <= t && t < end);
            }
            next = to;
          });
          assert.equal(next, offsets.length);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('without a zone, windows tile the line: start <= t < start + interval, start = offset mod interval', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), intervalArb, fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (t, interval, offset) => {
        const spec = windowSpec(interval, offset);
        const w = window(t, spec);
        assert.ok(w.start <= t && t < w.end);
        assert.equal(w.end - w.start, interval);
        assert.equal((((w.start - offset) % interval) + interval) % interval, 0n);
        const bs = buckets(w.start - 3n * interval, w.start, spec);
        assert.deepEqual(bs, [0n, 1n, 2n, 3n].map((k) => w.start - (3n - k) * interval));
      }),
      { numRuns: 300 },
    );
  });
  it('fill(null) keeps every real row and covers the enumerated buckets; fill(none) is the identity', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }), fc.integer({ min: 0, max: 5 }), (slots, startSlot) => {
        const spec = windowSpec(10n);
        const rows: TimedValue[] = slots.filter((k) => k >= startSlot).sort((a, b) => a - b).map((k) => ({ time: BigInt(k) * 10n, value: k }));
        const o = { window: spec, startNs: BigInt(startSlot) * 10n, endNs: 409n, valueType: FieldType.Integer } as const;
        assert.deepEqual(fillSeries(rows, { ...o, mode: 'none' }), rows);
        const out = fillSeries(rows, { ...o, mode: 'null' });
        if (rows.length === 0) return assert.deepEqual(out, []);
        for (const r of rows) assert.ok(out.some((x) => x.time === r.time && x.value === r.value));
        const expected = new Set([...buckets(o.startNs, o.endNs, spec), ...rows.map((r) => r.time)]);
        assert.deepEqual(new Set(out.map((r) => r.time)), expected);
      }),
      { numRuns: 200 },
    );
  });
  it('fill stopping after k windows gives the first k rows of the whole fill, in every mode', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom('null', 'number', 'previous', 'linear', 'none'),
        fc.integer({ min: 1, max: 50 }),
        (slots, startSlot, mode, k) => {
          const spec = windowSpec(10n);
          const rows: TimedValue[] = slots.filter((x) => x >= startSlot).sort((a, b) => a - b).map((x) => ({ time: BigInt(x) * 10n, value: x }));
          const o = { window: spec, startNs: BigInt(startSlot) * 10n, endNs: 409n, valueType: FieldType.Integer, mode, value: 7 } as const;
          assert.deepEqual(fillSeries(rows, { ...o, stopAfter: k }).slice(0, k), fillSeries(rows, o).slice(0, k));
        },
      ),
      { numRuns: 300 },
    );
    // LIMIT 1 over 10^17 windows: the guard no longer applies, and only one row is made.
    const far = fillSeries([{ time: 30n, value: 1 }], { mode: 'null', window: windowSpec(10n), startNs: 0n, endNs: 10n ** 18n, valueType: FieldType.Float, stopAfter: 2 });
    assert.deepEqual(far, [{ time: 0n, value: null }, { time: 10n, value: null }]);
  });
  it('certainlyMoreWindows never says more than the windows fill steps through, and without a zone says exactly that', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        fc.oneof(intervalArb, fc.bigInt({ min: 1n, max: 500n })),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        zoneArb,
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: -3, max: 3 }),
        (start, interval, offset, tz, span, near) => {
          // With a zone, intervals from 1 ms up (every DST change then costs at most one window or none).
          const spec = windowSpec(tz === undefined || interval >= 1_000_000n ? interval : interval + 1_000_000n, offset, tz);
          const first = window(start, spec).start;
          const endNs = start + BigInt(span) * spec.interval;
          const last = window(endNs, spec).start;
          const stepped = buckets(start, endNs, spec, 10_000).length;
          // A bound next to the count, where a DST day's window more or less decides.
          const max = Math.max(0, stepped + near);
          const more = certainlyMoreWindows(first, last, spec, max);
          if (more) assert.ok(stepped > max, `${stepped} windows, not more than ${max}`);
          if (spec.tz === undefined) assert.equal(more, stepped > max);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('fill over more windows than allowed fails before making them', { timeout: 20_000 }, () => {
    const spec = windowSpec(1n, 0n);
    const rows: TimedValue[] = [{ time: 5n, value: 1 }];
    // 10^18 windows: stepping through them, even to the bound, would not end in a test's time.
    assert.throws(
      () => fillSeries(rows, { mode: 'null', window: spec, startNs: 0n, endNs: 10n ** 18n, valueType: FieldType.Float, maxRows: Number.MAX_SAFE_INTEGER }),
      /max-select-buckets limit exceeded/,
    );
  });
});

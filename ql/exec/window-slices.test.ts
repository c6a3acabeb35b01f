import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { window as windowOf, windowSpec } from './window.js';
import { windowCount, WindowSlices, type Slice } from './window-slices.js';

const MIN = 60_000_000_000n;

function all(s: WindowSlices): Slice[] {
  const out: Slice[] = [];
  for (let i = 0; ; i++) {
    const x = s.at(i);
    if (!x) return out;
    out.push(x);
  }
}

describe('WindowSlices', () => {
  it('cut the range into whole windows, in read order, covering it once', () => {
    const spec = fc.record({
      interval: fc.constantFrom(1n, 7n, MIN, 10n * MIN, 1_440n * MIN),
      offset: fc.integer({ min: -3, max: 3 }),
      tz: fc.constantFrom(undefined, 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe'),
    });
    fc.assert(
      fc.property(spec, fc.bigInt({ min: 1_600_000_000_000_000_000n, max: 1_700_000_000_000_000_000n }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), (sp, min, n, windows, ascending) => {
        const w = windowSpec(sp.interval, BigInt(sp.offset) * (sp.interval / 4n), sp.interval >= MIN ? sp.tz : undefined);
        const max = min + BigInt(n) * sp.interval + 3n;
        const slices = new WindowSlices(w, min, max, ascending, windows);
        const got = all(slices);
        const ordered = ascending ? got : [...got].reverse();
        assert.equal(ordered[0]!.min, min);
        assert.equal(ordered[ordered.length - 1]!.max, max);
        for (const [k, s] of ordered.entries()) {
          assert.ok(s.min <= s.max);
          if (k > 0) {
            assert.equal(s.min, ordered[k - 1]!.max + 1n, 'no gap, no overlap');
            assert.equal(windowOf(s.min, w).start, s.min, 'an inner cut is a window start');
          }
          // Whole windows: `windows` of them, fewer at the range's end (more only where a zone's day is longer).
          if (w.tz === undefined) assert.ok(windowCount(w, s.min, s.max) <= windows);
        }
        if (w.tz === undefined && ordered.length > 1) assert.ok(got.slice(0, -1).every((s) => windowCount(w, s.min, s.max) === windows || s === got[0]));
        for (const [i, s] of got.entries()) {
          assert.equal(slices.indexOf(ascending ? s.min : s.max), i);
          assert.equal(slices.indexOf(ascending ? s.max : s.min), i);
        }
        assert.equal(slices.indexOf(ascending ? min - 1n : max + 1n), 0);
        assert.equal(slices.indexOf(ascending ? max + 1n : min - 1n), got.length);
      }),
      { numRuns: 400 },
    );
  });

  it('has no slice for an empty range', () => {
    const s = new WindowSlices(windowSpec(MIN), 10n, 9n, true, 4);
    assert.equal(s.at(0), undefined);
    assert.equal(s.indexOf(10n), 0);
  });
});

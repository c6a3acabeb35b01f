import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Precision } from '../point.js';
import { codeUnitsOf } from './code-units.js';
import { parsePlainTimestamp, parseTimestamp, truncateToPrecision } from './timestamp.js';

const MULT: Record<Precision, bigint> = { ns: 1n, us: 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n };
const MIN = -(2n ** 63n) + 2n;
const MAX = 2n ** 63n - 2n;

/** Reference: exact BigInt arithmetic; null when the (in-int64) value is out of range. */
function reference(v: bigint, p: Precision): { sec: number; nsec: number } | null {
  const ns = v * MULT[p];
  if (ns < MIN || ns > MAX) return null;
  let sec = ns / 1000000000n;
  if (ns < 0n && sec * 1000000000n !== ns) sec -= 1n;
  return { sec: Number(sec), nsec: Number(ns - sec * 1000000000n) };
}

test('property: parseTimestamp agrees with exact BigInt arithmetic in every precision', () => {
  const limitNear = fc
    .tuple(fc.constantFrom(...Object.values(MULT)), fc.boolean(), fc.bigInt({ min: -3n, max: 3n }))
    .map(([m, top, d]) => (top ? MAX / m + d : MIN / m + d));
  const value = fc.oneof(
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
    fc.integer({ min: -1000, max: 1000 }).map(BigInt),
    limitNear,
  );
  const precision = fc.constantFrom<Precision>('ns', 'us', 'ms', 's', 'm', 'h');
  fc.assert(
    fc.property(value, precision, (v, p) => {
      const text = String(v);
      const out = { sec: NaN, nsec: NaN };
      const err = parseTimestamp(text, 0, text.length, p, out);
      const want = reference(v, p);
      if (v < -(2n ** 63n) || v >= 2n ** 63n) {
        assert.equal(err, `strconv.ParseInt: parsing "${text}": value out of range`);
      } else if (want === null) {
        assert.match(err ?? '', /^time outside range -9223372036854775806 - 9223372036854775806$/);
      } else {
        assert.equal(err, null);
        assert.deepEqual(out, want);
      }
    }),
    { numRuns: 20000 },
  );
});

test('parseTimestamp: padded digits and text beyond int64', () => {
  const out = { sec: 0, nsec: 0 };
  assert.equal(parseTimestamp('x000000000000000000001500', 1, 25, 'ns', out), null);
  assert.deepEqual(out, { sec: 0, nsec: 1500 });
  assert.equal(parseTimestamp('9223372036854775808', 0, 19, 'ns', out), 'strconv.ParseInt: parsing "9223372036854775808": value out of range');
  assert.equal(parseTimestamp('-9223372036854775809', 0, 20, 'h', out), 'strconv.ParseInt: parsing "-9223372036854775809": value out of range');
  assert.equal(parseTimestamp('-9223372036854775806', 0, 20, 'us', out), 'time outside range -9223372036854775806 - 9223372036854775806');
});

test('truncateToPrecision rounds down, also before 1970', () => {
  const out = { sec: 0, nsec: 0 };
  truncateToPrecision(-61, 999_999_999, 'm', out);
  assert.deepEqual(out, { sec: -120, nsec: 0 });
  truncateToPrecision(-1, 123_456_789, 'us', out);
  assert.deepEqual(out, { sec: -1, nsec: 123_456_000 });
  truncateToPrecision(3599, 5, 'h', out);
  assert.deepEqual(out, { sec: 0, nsec: 0 });
});

test('property: parsePlainTimestamp answers what parseTimestamp answers, or declines without writing', () => {
  const digitsNear = fc
    .tuple(fc.constantFrom(...Object.values(MULT)), fc.bigInt({ min: -3n, max: 3n }))
    .map(([m, d]) => String(MAX / m + d));
  const token = fc.oneof(
    fc.stringMatching(/^[0-9]{1,21}$/),
    fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String),
    digitsNear,
    fc.stringMatching(/^-?[0-9]{0,5}[ x-]?[0-9]{0,14}$/),
    // Units whose low byte is a digit: the code units must not read them as one.
    fc.stringMatching(/^[0-9]{0,5}[\u0131\u0230\u3039]?[0-9]{0,13}$/),
  );
  fc.assert(
    fc.property(token, fc.constantFrom<Precision>('ns', 'us', 'ms', 's', 'm', 'h'), (t, p) => {
      const s = `x ${t}`;
      const plain = { sec: -7, nsec: -7 };
      if (!parsePlainTimestamp(codeUnitsOf(s).codes, 2, s.length, p, plain)) {
        assert.deepEqual(plain, { sec: -7, nsec: -7 }, 'nothing written');
        return;
      }
      assert.match(t, /^[0-9]+$/);
      const general = { sec: 0, nsec: 0 };
      assert.equal(parseTimestamp(s, 2, s.length, p, general), null);
      assert.deepEqual(plain, general);
    }),
    { numRuns: 3000 },
  );
});

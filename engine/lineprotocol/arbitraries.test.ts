/**
 * Test-only helper (fast-check is a dev dependency), hence the .test.ts name; it holds no tests.
 *
 * fast-check generators for points that line protocol can represent (shared by the property
 * tests). Excluded on purpose, because 1.x line protocol cannot express them:
 *   names ending in a backslash; field keys with a backslash right before `,` `=` space `"`;
 *   measurements with one before those four, tags with one before a space (see below);
 *   measurements starting with `#` (a comment) or a tab/NUL, and field keys starting with a
 *   tab/NUL (both skipped as blanks, as 1.x skipWhitespace does);
 *   line breaks in names; tag/field keys named `time`; NaN and ±Inf floats.
 */
import fc from 'fast-check';
import { FieldType } from '../point.js';
import type { Field, Point, Tag } from '../point.js';
import { makeSeriesKey, sortTags } from './series-key.js';

const CHARS = fc.constantFrom(',', '=', ' ', '"', '\\', '\t', '#', 'a', 'b', 'Z', '_', '0', '.', '-', 'é', '東', '😀', '\u{E000}', '\u{FFFD}');
const TEXT_CHARS = fc.oneof(CHARS, fc.constantFrom('\n', '\r', '\r\n'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));

const name = fc.string({ unit: CHARS, minLength: 1, maxLength: 8 }).filter((s) => !s.endsWith('\\'));
// A backslash before `=` or `"` in a name does not survive a write, in 1.x either: its parser
// unescapes both in a measurement, its writer escapes neither (series-key.ts MEASUREMENT_UNESCAPES).
// Nor does one before `,` or a space: 1.x keys and indexes such a name without it (key.ts
// measurementNames).
export const measurementArb = name.filter((s) => s[0] !== '#' && s[0] !== '\t' && !/\\[=", ]/.test(s));
// A backslash before a space in a tag is written `\\\\ `, where 1.x's line scanner (skipping
// backslash pairs) starts the field set: a quote later in the line is then counted wrongly.
const tagText = name.filter((s) => !s.includes('\\ '));
export const tagKeyArb = tagText.filter((s) => s !== 'time');
export const fieldKeyArb = name.filter((s) => s !== 'time' && s[0] !== '\t' && !/\\[,= "]/.test(s));

const int64 = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 0n, 2n ** 53n, -(2n ** 53n), 2n ** 53n - 1n));
const uint64 = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.constantFrom(0n, 2n ** 64n - 1n, 2n ** 53n));
const safe = (v: bigint): number | bigint => (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);

const plain = (f: Field): Field => ({ ...f });
export const fieldArb: fc.Arbitrary<Field> = fc.oneof(
  fc.record({ key: fieldKeyArb, type: fc.constant(FieldType.Float), value: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 0, 5e-324, Number.MAX_VALUE, 0.1, 1e21)) }),
  fc.record({ key: fieldKeyArb, type: fc.constant(FieldType.Integer), value: int64.map(safe) }),
  fc.record({ key: fieldKeyArb, type: fc.constant(FieldType.Unsigned), value: uint64.map(safe) }),
  fc.record({ key: fieldKeyArb, type: fc.constant(FieldType.Boolean), value: fc.boolean() }),
  fc.record({ key: fieldKeyArb, type: fc.constant(FieldType.String), value: fc.string({ unit: TEXT_CHARS, maxLength: 12 }) }),
);

export const tagsArb: fc.Arbitrary<Tag[]> = fc.uniqueArray(
  fc.record({ key: tagKeyArb, value: tagText }).map((t) => ({ key: t.key, value: t.value })),
  { selector: (t) => t.key, maxLength: 5 },
);

/** (sec, nsec) inside 1.x's valid range [MinInt64 + 2, MaxInt64 - 1] ns. */
export const timeArb = fc
  .oneof(
    fc.record({ sec: fc.integer({ min: -9223372037, max: 9223372036 }), nsec: fc.integer({ min: 0, max: 999_999_999 }) }),
    fc.constantFrom({ sec: 9223372036, nsec: 854775806 }, { sec: -9223372037, nsec: 145224194 }, { sec: -1, nsec: 1 }, { sec: 0, nsec: 0 }),
  )
  .filter(({ sec, nsec }) => !(sec === 9223372036 && nsec > 854775806) && !(sec === -9223372037 && nsec < 145224194));

export const pointArb: fc.Arbitrary<Point> = fc
  .record({
    measurement: measurementArb,
    tags: tagsArb,
    fields: fc.uniqueArray(fieldArb.map(plain), { selector: (f) => f.key, minLength: 1, maxLength: 5 }),
    time: timeArb,
  })
  .map(({ measurement, tags, fields, time }) => ({
    seriesKey: makeSeriesKey(measurement, tags),
    measurement,
    tags: sortTags(tags),
    fields,
    sec: time.sec,
    nsec: time.nsec,
  }));

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { windowRowsJson } from './window-rows-json.js';
import { rowsJson } from './json-rows.js';
import { formatTimeNs, type Epoch } from './epoch.js';
import { rfc3339Formatter } from './time-text.js';
import { windowRowValues, type WindowRows } from '../../ql/window-rows.js';
import type { Cell } from '../../ql/index.js';

const cellArb: fc.Arbitrary<Cell> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -5, max: 1100 }),
  fc.double(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.constantFrom(0.5, -0, 2 ** 53, 1e21),
);

/** Windows anywhere in int64 time, on whole seconds or not, some rows left out (fill(none)), either order. */
const windowRowsArb: fc.Arbitrary<WindowRows> = fc
  .record({
    first: fc.oneof(fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }), fc.integer({ min: -2e9, max: 2e9 }).map((s) => BigInt(s) * 1_000_000_000n)),
    interval: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 1, max: 400_000 }).map((s) => BigInt(s) * 1_000_000_000n)),
    count: fc.integer({ min: 0, max: 80 }),
    columns: fc.integer({ min: 1, max: 3 }),
    keep: fc.double({ min: 0, max: 1, noNaN: true }),
    descending: fc.boolean(),
    seed: fc.array(cellArb, { minLength: 1, maxLength: 40 }),
  })
  .map(({ first, interval, count, columns, keep, descending, seed }) => {
    const windows = Array.from({ length: count }, (_, k) => k).filter((k) => ((k * 7919) % 100) / 100 < keep);
    if (descending) windows.reverse();
    const cols = Array.from({ length: columns }, (_, c) => Array.from({ length: count }, (_, k) => seed[(k * 31 + c * 17) % seed.length]!));
    return { first, interval, windows, columns: cols };
  });

test('window rows print as rowsJson prints their values: RFC 3339 (whole-second windows or not) and every epoch', () => {
  fc.assert(
    fc.property(windowRowsArb, fc.constantFrom<Epoch | undefined>(undefined, 'ns', 'u', 'ms', 's', 'm', 'h'), (w, epoch) => {
      const time = () => (epoch ? (ns: bigint) => formatTimeNs(ns, epoch) : rfc3339Formatter());
      assert.equal(windowRowsJson(w, epoch === undefined, time()), rowsJson(windowRowValues(w), true, time()));
    }),
    { numRuns: 400 },
  );
});

test('GROUP BY time(1m) rows across an hour and a day boundary, a null window and integers beyond the table', () => {
  const first = BigInt(Date.UTC(2015, 11, 31, 23, 58)) * 1_000_000n;
  const w: WindowRows = { first, interval: 60_000_000_000n, windows: [0, 1, 2, 3], columns: [[85, null, 2048, 1.5]] };
  assert.equal(windowRowsJson(w, true, rfc3339Formatter()), '[["2015-12-31T23:58:00Z",85],["2015-12-31T23:59:00Z",null],["2016-01-01T00:00:00Z",2048],["2016-01-01T00:01:00Z",1.5]]');
});

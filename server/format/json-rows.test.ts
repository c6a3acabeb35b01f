import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Cell } from '../../ql/index.js';
import { rfc3339Nano } from './epoch.js';
import { resultsToJson } from './json.js';
import { Rfc3339Cache } from './time-text.js';

const nsArb = fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n });

test('cached RFC 3339 equals rfc3339Nano on random times, in runs of nearby times too (minute and hour changes)', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(nsArb, fc.array(fc.oneof(fc.bigInt({ min: -90_000_000_000n, max: 90_000_000_000n }), fc.bigInt({ min: -8_000_000_000_000n, max: 8_000_000_000_000n }), fc.bigInt({ min: -(2n ** 41n), max: 2n ** 41n }), fc.tuple(fc.integer({ min: -1100, max: 1100 }), fc.integer({ min: -2, max: 2 })).map(([s, n]) => BigInt(s) * 1_000_000_000n + BigInt(n))), { maxLength: 8 }))), (groups) => {
      const cache = new Rfc3339Cache();
      for (const [start, steps] of groups) {
        let t = start;
        for (const d of [0n, ...steps]) {
          t += d;
          assert.equal(cache.format(t), rfc3339Nano(t));
        }
      }
    }),
    { numRuns: 1000 },
  );
  // Runs of one repeated step (GROUP BY time rows), steps crossing seconds, minutes, hours and zero.
  fc.assert(
    fc.property(fc.array(fc.tuple(nsArb, fc.oneof(fc.bigInt({ min: -(2n ** 41n), max: 2n ** 41n }), fc.constantFrom(0n, 1n, 60_000_000_000n, 3_600_000_000_000n, 2n ** 40n, 2n ** 53n)), fc.integer({ min: 1, max: 70 })), { maxLength: 6 }), (runs) => {
      const cache = new Rfc3339Cache();
      for (const [start, step, count] of runs) {
        for (let i = 0n, t = start; i < BigInt(count); i++, t += step) assert.equal(cache.format(t), rfc3339Nano(t));
      }
    }),
    { numRuns: 500 },
  );
  const cache = new Rfc3339Cache();
  for (const t of [0n, -1n, 1n, 999_999_999n, 1_000_000_000n, 59_999_999_999n, 60_000_000_000n, -60_000_000_001n, 1451606400000000000n, 1451606410120000000n]) {
    assert.equal(cache.format(t), rfc3339Nano(t));
  }
});

/** JSON text with the whitespace outside string literals removed. */
function withoutWhitespace(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

const cellArb: fc.Arbitrary<Cell> = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
);

test('compact rows written in one pass equal the pretty tree without its whitespace', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.oneof(nsArb, cellArb), fc.array(cellArb, { maxLength: 4 }))),
      fc.constantFrom(undefined, 'ns', 'ms', 'h') as fc.Arbitrary<'ns' | 'ms' | 'h' | undefined>,
      fc.constantFrom(undefined, 'America/New_York'),
      (rows, epoch, timeZone) => {
        const values = rows.map(([t, rest]) => [t, ...rest]);
        const results = [{ statementId: 0, timeZone, series: [{ name: 'm', tags: { b: '1', a: 'x"y' }, columns: ['time', 'v'], values }] }];
        const compact = resultsToJson(results, { epoch, pretty: false });
        const pretty = resultsToJson(results, { epoch, pretty: true });
        assert.deepEqual(JSON.parse(compact), JSON.parse(pretty));
        assert.equal(compact, withoutWhitespace(pretty) + '\n');
      },
    ),
    { numRuns: 300 },
  );
});

test('rows of a series (repeated tag strings above each other, small and other numbers) equal the pretty tree', () => {
  const tags = ['x86', 'eu "west"', 'host_42', '', 'ünï'];
  const numbers = [0, 1, 1023, 1024, -1, -0, 0.5, 1e21, NaN, 7];
  const values: Cell[][] = [];
  for (let r = 0; r < 40; r++) {
    // The same string objects on every row, except that the host column switches now and then.
    const row: Cell[] = [1451606400000000000n + BigInt(r) * 10_000_000_000n, ...tags];
    if (r % 7 === 3) row[3] = `host_${r}`;
    row.push(numbers[r % numbers.length]!, r % 5 === 0 ? null : numbers[(r * 3) % numbers.length]!, r % 2 === 0);
    values.push(row);
  }
  const results = [{ statementId: 0, series: [{ name: 'cpu', columns: ['time', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], values }] }];
  const compact = resultsToJson(results, { epoch: undefined, pretty: false });
  assert.equal(compact, withoutWhitespace(resultsToJson(results, { epoch: undefined, pretty: true })) + '\n');
  assert.deepEqual(JSON.parse(compact).results[0].series[0].values[3].slice(1, 4), ['x86', 'eu "west"', 'host_3']);
});

test('rows drawn from a few strings and numbers (runs of equal strings that start, end and shift between rows) equal the pretty tree', () => {
  const pool: Cell[] = ['a', 'b', 'c"', 'ü', 1, 2, null];
  fc.assert(
    fc.property(fc.array(fc.array(fc.nat(pool.length - 1), { minLength: 0, maxLength: 6 }), { maxLength: 12 }), fc.boolean(), (picks, timed) => {
      const values: Cell[][] = picks.map((p, r) => [...(timed ? [BigInt(r) * 1_000_000_000n] : []), ...p.map((k) => pool[k]!)]);
      const results = [{ statementId: 0, series: [{ name: 'm', columns: ['time', 'v'], values }] }];
      const compact = resultsToJson(results, { epoch: undefined, pretty: false });
      assert.equal(compact, withoutWhitespace(resultsToJson(results, { epoch: undefined, pretty: true })) + '\n');
    }),
    { numRuns: 2000 },
  );
});

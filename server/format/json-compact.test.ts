/** The compact /query body written in one pass equals stringify of the statementJ trees, on random results. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Cell, ResultSeries, StatementResult } from '../../ql/index.js';
import { resultsToJson, statementJ, stringify } from './json.js';

const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', 'cpu', 'a"b', 'ü€', '\\n', '\u0000'));
const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constant(null),
  fc.double(),
  fc.integer({ min: -5, max: 2000 }),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  text,
  fc.boolean(),
);
const series: fc.Arbitrary<ResultSeries> = fc.record(
  {
    name: text,
    tags: fc.dictionary(text, text, { maxKeys: 3 }),
    columns: fc.array(text, { maxLength: 4 }),
    values: fc.array(
      fc.tuple(fc.oneof(fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }), cell), fc.array(cell, { maxLength: 3 })).map(([t, rest]) => [t, ...rest]),
      { maxLength: 4 },
    ),
    timeColumn: fc.boolean(),
    partial: fc.boolean(),
  },
  { requiredKeys: ['columns', 'values'] },
);
const result: fc.Arbitrary<StatementResult> = fc.record(
  {
    statementId: fc.nat(9),
    series: fc.array(series, { maxLength: 3 }),
    messages: fc.array(fc.record({ level: text, text }), { maxLength: 2 }),
    error: text,
    partial: fc.boolean(),
    timeZone: fc.constantFrom('America/New_York', 'Asia/Kolkata'),
  },
  { requiredKeys: ['statementId'] },
);

test('compact /query JSON equals the stringified value trees', () => {
  fc.assert(
    fc.property(fc.array(result, { minLength: 1, maxLength: 3 }), fc.constantFrom(undefined, 'ns' as const, 'ms' as const, 'h' as const), (results, epoch) => {
      const tree = stringify({ results: results.map((r) => statementJ(r, epoch, false)) }, false) + '\n';
      assert.equal(resultsToJson(results, { epoch, pretty: false }), tree);
    }),
    { numRuns: 2000 },
  );
});

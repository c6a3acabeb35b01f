/**
 * A subquery series whose rows are already in read order is read without a row object per
 * value and a sort (subquery-source.ts cursorInOrder). Differential: the same rows read in the
 * other direction take the sorting path; reversed, both must give the same rows and values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType, TRUE_EXPR, type Cursor } from '../../engine/index.js';
import type { Cell, ResultSeries } from '../result.js';
import { SubquerySource } from './subquery-source.js';
import { HeldRows } from './subquery-rows.js';

async function rows(c: Cursor): Promise<[bigint, unknown][]> {
  const out: [bigint, unknown][] = [];
  for (let b = await c.next(); b; b = await c.next()) {
    b.offsets.forEach((o, i) => out.push([b.base + BigInt(o), typeof b.column.values[i] === 'bigint' ? b.column.values[i] : (b.column.values as ArrayLike<unknown>)[i]]));
  }
  c.close();
  return out;
}

const cell = fc.oneof(fc.constant(null), fc.double({ noNaN: true }), fc.integer());

describe('SubquerySource cursor over rows in read order', () => {
  it('gives the rows the sorting path gives', async () => {
    let seen = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), cell, cell), { maxLength: 40 }),
        fc.bigInt({ min: -(10n ** 12n), max: 2n * 10n ** 13n }),
        fc.bigInt({ min: 0n, max: 2n * 10n ** 13n }),
        fc.boolean(),
        async (gaps, from, span, descendingInner) => {
          const t0 = 1_700_000_000_000_000_000n;
          let t = t0;
          const values: Cell[][] = gaps.map(([gap, a, b]) => [(t += gap), a, b]);
          // An inner statement under ORDER BY time DESC gives its rows newest first.
          if (descendingInner) values.reverse();
          const series: ResultSeries = { name: 'm', tags: { s: 'x' }, columns: ['time', 'a', 'b'], values, columnTypes: [undefined, FieldType.Float, FieldType.Float] };
          const src = new SubquerySource('m', new HeldRows([series]));
          const [ref] = src.series(TRUE_EXPR);
          for (const field of ['a', 'b']) {
            const inOrder = await rows(src.cursor(ref!, field, t0 + from, t0 + from + span, !descendingInner));
            const sorted = await rows(src.cursor(ref!, field, t0 + from, t0 + from + span, descendingInner));
            assert.deepEqual(inOrder, sorted.reverse());
            seen += inOrder.length;
          }
        },
      ),
      { numRuns: 500 },
    );
    assert.ok(seen > 200, `the ranges kept rows (${seen})`);
  });
});

describe('HeldRows cut into runs (rows a raw statement passed on in series order)', () => {
  it('gives one series per run, keyed in the order given, each in read order', async () => {
    // the groups' last() rows as a raw middle statement passes them on: a@40, b@30, c@30, c@50
    const values: Cell[][] = [[40n, 2], [30n, 4], [30n, 5], [50n, 6]];
    for (const [dir, ascending, want] of [['ascending', true, [[40n], [30n], [30n, 50n]]], ['descending', false, [[40n, 30n], [30n], [50n]]]] as const) {
      const series: ResultSeries = { name: 'r', columns: ['time', 'last'], values, columnTypes: [undefined, FieldType.Float] };
      const src = new SubquerySource('r', new HeldRows([series], false, dir));
      const refs = src.series(TRUE_EXPR);
      const got: bigint[][] = [];
      for (const ref of refs) got.push((await rows(src.cursor(ref, 'last', 0n, 100n, ascending))).map(([t]) => t));
      assert.deepEqual(got, want, dir);
    }
  });
});

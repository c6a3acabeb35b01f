import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType, type Batch, type Cursor } from '../../engine/index.js';
import { FilteredRowReader } from './filtered-row-reader.js';
import { RowReader, type Row } from './row-reader.js';

/** A cursor over sorted [time, value] points cut into batches at `cuts`, each batch based at a shard start. */
function arrayCursor(points: readonly [number, number][], cuts: readonly number[], ascending: boolean): Cursor {
  const ordered = ascending ? points : [...points].reverse();
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < ordered.length).sort((a, b) => a - b), ordered.length];
  const batches: Batch[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const part = ordered.slice(bounds[k], bounds[k + 1]);
    if (part.length === 0) continue;
    const base = BigInt(Math.floor(part[0]![0] / 1000) * 1000);
    batches.push({ base, offsets: Float64Array.from(part.map(([t]) => t - Number(base))), column: { type: FieldType.Float, values: Float64Array.from(part.map(([, v]) => v)) } });
  }
  return { type: FieldType.Float, next: async () => batches.shift() ?? null, close: () => undefined };
}

async function all(r: { next(): Promise<Row | null> }): Promise<Row[]> {
  const out: Row[] = [];
  for (let row = await r.next(); row; row = await r.next()) out.push(row);
  return out;
}

const seriesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 300 })
  .map((ts) => ts.sort((a, b) => a - b).map((t) => [t, (t * 7919) % 100] as [number, number]));

test('RowReader joins fields by time across batches of different bases, both directions', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(seriesArb, fc.array(fc.nat(300), { maxLength: 4 })), { minLength: 1, maxLength: 4 }), fc.boolean(), async (fields, ascending) => {
      const model = new Map<number, (number | null)[]>();
      fields.forEach(([pts], k) => {
        for (const [t, v] of pts) {
          const row = model.get(t) ?? fields.map(() => null);
          row[k] = v;
          model.set(t, row);
        }
      });
      const expected = [...model.entries()].sort((a, b) => (ascending ? a[0] - b[0] : b[0] - a[0])).map(([t, values]) => ({ time: BigInt(t), values }));
      const got = await all(new RowReader(fields.map(([pts, cuts]) => arrayCursor(pts, cuts, ascending)), ascending));
      assert.deepEqual(got, expected);
    }),
    { numRuns: 200 },
  );
});

test('RowReader: rows taken with nextNow() where it has them and next() otherwise equal rows taken with next() alone', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(seriesArb, fc.array(fc.nat(300), { maxLength: 4 })), { minLength: 1, maxLength: 4 }), fc.boolean(), async (fields, ascending) => {
      const open = () => new RowReader(fields.map(([pts, cuts]) => arrayCursor(pts, cuts, ascending)), ascending);
      const expected = await all(open());
      const reader = open();
      const got: Row[] = [];
      let waits = 0;
      for (;;) {
        let row = reader.nextNow();
        if (row === undefined) {
          waits++;
          row = await reader.next();
        }
        if (!row) break;
        got.push(row);
      }
      assert.deepEqual(got, expected);
      // It waits before the first batches and then only when a batch is used up (at most once per batch and per end).
      assert.ok(waits >= 1);
      assert.ok(waits <= fields.reduce((n, [, cuts]) => n + cuts.length + 2, 0));
    }),
    { numRuns: 300 },
  );
});

/** The cursor's batches as stats batches (count and time extent given) that count reads of their timestamps. */
function withStats(cursor: Cursor, reads: { offsets: number }): Cursor {
  return {
    ...cursor,
    next: async () => {
      const b = await cursor.next();
      if (!b) return null;
      const n = b.offsets.length;
      return {
        base: b.base,
        column: b.column,
        stats: { count: n, firstOffset: b.offsets[0]!, lastOffset: b.offsets[n - 1]! },
        get offsets() {
          reads.offsets++;
          return b.offsets;
        },
      };
    },
  };
}

test('RowReader over stats batches: the same rows; the first row of a batch is read without its timestamps', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(seriesArb, fc.array(fc.nat(300), { maxLength: 4 })), { minLength: 1, maxLength: 4 }), fc.boolean(), async (fields, ascending) => {
      const expected = await all(new RowReader(fields.map(([pts, cuts]) => arrayCursor(pts, cuts, ascending)), ascending));
      const got = await all(new RowReader(fields.map(([pts, cuts]) => withStats(arrayCursor(pts, cuts, ascending), { offsets: 0 })), ascending));
      assert.deepEqual(got, expected);
    }),
    { numRuns: 200 },
  );
  const reads = { offsets: 0 };
  const points: [number, number][] = [
    [10, 1],
    [20, 2],
    [30, 3],
  ];
  const reader = new RowReader([withStats(arrayCursor(points, [], false), reads), withStats(arrayCursor(points, [], false), reads)], false);
  assert.deepEqual(await reader.next(), { time: 30n, values: [3, 3] });
  assert.equal(reads.offsets, 0);
  assert.deepEqual(await reader.next(), { time: 20n, values: [2, 2] });
  assert.ok(reads.offsets > 0);
});

test('condition-first rows equal joined rows filtered afterwards, one or two condition fields, any batching, both directions', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(seriesArb, fc.array(fc.nat(300), { maxLength: 4 })), { minLength: 2, maxLength: 4 }),
      fc.integer({ min: 0, max: 100 }),
      fc.boolean(),
      fc.constantFrom<number[]>([1], [0, 1], [1, 0]),
      async (fields, threshold, ascending, condSlots) => {
        // Never true when every condition value is null, as select-raw requires.
        const passes = (values: readonly unknown[]) => values.some((v) => typeof v === 'number' && v > threshold);
        const cursors = () => fields.map(([pts, cuts]) => arrayCursor(pts, cuts, ascending));
        const expected = (await all(new RowReader(cursors(), ascending))).filter((r) => passes(condSlots.map((k) => r.values[k])));
        const c = cursors();
        const otherSlots = fields.map((_, k) => k).filter((k) => !condSlots.includes(k));
        // The other fields' cursors from a given time on, as the engine makes them.
        const from = (k: number) => (t: bigint) => {
          const [pts, cuts] = fields[k]!;
          return arrayCursor(pts.filter(([pt]) => (ascending ? BigInt(pt) >= t : BigInt(pt) <= t)), cuts, ascending);
        };
        const reader = new FilteredRowReader(condSlots.map((k) => c[k]!), condSlots, otherSlots.map(from), otherSlots, fields.length, ascending, passes);
        assert.deepEqual(await all(reader), expected);
      },
    ),
    { numRuns: 200 },
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RunMerger } from './merge.js';
import type { RunBlock, SortedRun } from './run.js';
import { FieldType } from '../point.js';

/**
 * A run over fixed ascending rows, cut into blocks of `blockSize`; `bounded` announces the
 * first row's time as startBound like a block index does; `reads` counts blocks handed out.
 * `inMemory` (0..1): how often nextNow answers instead of asking for a read (undefined: no nextNow).
 */
function arrayRun(rows: [number, number][], priority: number, blockSize: number, ascending: boolean, bounded = false, inMemory?: number) {
  const ordered = ascending ? rows : [...rows].reverse();
  const blocks: RunBlock[] = [];
  for (let i = 0; i < ordered.length; i += blockSize) {
    const part = ordered.slice(i, i + blockSize);
    blocks.push({ offsets: Float64Array.from(part.map((r) => r[0])), column: { type: FieldType.Float, values: Float64Array.from(part.map((r) => r[1])) } });
  }
  const counter = { reads: 0 };
  const run: SortedRun = {
    priority,
    startBound: bounded ? ordered[0]?.[0] : undefined,
    next: async () => {
      const b = blocks.shift() ?? null;
      if (b) counter.reads++;
      return b;
    },
    close: () => undefined,
  };
  if (inMemory !== undefined) {
    run.nextNow = () => {
      if (Math.random() >= inMemory) return undefined;
      const b = blocks.shift() ?? null;
      if (b) counter.reads++;
      return b;
    };
  }
  return { run, counter };
}

const runArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 3000 }), { maxLength: 1500 })
  .map((ts) => ts.sort((a, b) => a - b).map((t) => [t, Math.random()] as [number, number]));

/** `now` (0..1): how often the merge is asked with nextNow first. */
async function drain(merger: RunMerger, limit = Infinity, now = 0): Promise<[number, number][]> {
  const got: [number, number][] = [];
  const take = async () => (Math.random() < now ? (merger.nextNow() ?? (await merger.next())) : merger.next());
  for (let b = await take(); b && got.length < limit; b = await take()) {
    assert.ok(b.offsets.length > 0 && b.offsets.length <= 1000);
    for (let i = 0; i < b.offsets.length; i++) got.push([b.offsets[i]!, (b.column.values as Float64Array)[i]!]);
  }
  return got.slice(0, limit);
}

test('merge equals last-write-wins model, both directions, any block sizes, with and without bounds, any limit', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(runArb, fc.boolean()), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 1, max: 700 }),
      fc.boolean(),
      fc.option(fc.integer({ min: 1, max: 2500 })),
      async (runs, bs, asc, limit) => {
        const model = new Map<number, number>();
        runs.forEach(([rows]) => rows.forEach(([t, v]) => model.set(t, v))); // later runs win
        const expected = [...model.entries()].sort((a, b) => (asc ? a[0] - b[0] : b[0] - a[0])).slice(0, limit ?? Infinity);
        const merger = new RunMerger(runs.map(([r, bounded], p) => arrayRun(r, p, bs, asc, bounded).run), FieldType.Float, asc);
        assert.deepEqual(await drain(merger, limit ?? Infinity), expected);
      },
    ),
    { numRuns: 80 },
  );
});

test('nextNow and next mixed equal the model while runs answer now or need reads at random', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(runArb, fc.boolean(), fc.option(fc.double({ min: 0, max: 1, noNaN: true }))), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 1, max: 700 }),
      fc.boolean(),
      fc.option(fc.integer({ min: 1, max: 2500 })),
      fc.double({ min: 0, max: 1, noNaN: true }),
      async (runs, bs, asc, limit, now) => {
        const model = new Map<number, number>();
        runs.forEach(([rows]) => rows.forEach(([t, v]) => model.set(t, v)));
        const expected = [...model.entries()].sort((a, b) => (asc ? a[0] - b[0] : b[0] - a[0])).slice(0, limit ?? Infinity);
        const merger = new RunMerger(runs.map(([r, bounded, inMemory], p) => arrayRun(r, p, bs, asc, bounded, inMemory ?? undefined).run), FieldType.Float, asc);
        assert.deepEqual(await drain(merger, limit ?? Infinity, now), expected);
      },
    ),
    { numRuns: 80 },
  );
});

test('a bounded run is read only when the merge reaches it: LIMIT 1 over disjoint runs reads one block', async () => {
  for (const asc of [true, false]) {
    const rows = (from: number) => Array.from({ length: 250 }, (_, i) => [from + i, from] as [number, number]);
    const runs = [0, 1000, 2000].map((from, p) => arrayRun(rows(from), p, 100, asc, true));
    const merger = new RunMerger(runs.map((r) => r.run), FieldType.Float, asc);
    const first = await merger.next();
    assert.equal(first!.offsets[0], asc ? 0 : 2249);
    assert.deepEqual(
      runs.map((r) => r.counter.reads),
      asc ? [1, 0, 0] : [0, 0, 1],
    );
  }
});

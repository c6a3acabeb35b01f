import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RunMerger } from './merge.js';
import type { RunBlock, SortedRun } from './run.js';
import { FieldType } from '../point.js';

/** A run over fixed ascending rows, cut into blocks of `blockSize`. */
function arrayRun(rows: [number, number][], priority: number, blockSize: number, ascending: boolean): SortedRun {
  const ordered = ascending ? rows : [...rows].reverse();
  const blocks: RunBlock[] = [];
  for (let i = 0; i < ordered.length; i += blockSize) {
    const part = ordered.slice(i, i + blockSize);
    blocks.push({ offsets: Float64Array.from(part.map((r) => r[0])), column: { type: FieldType.Float, values: Float64Array.from(part.map((r) => r[1])) } });
  }
  return { priority, next: async () => blocks.shift() ?? null, close: () => undefined };
}

const runArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 3000 }), { maxLength: 1500 })
  .map((ts) => ts.sort((a, b) => a - b).map((t) => [t, Math.random()] as [number, number]));

test('merge equals last-write-wins model, both directions, any block sizes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(runArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 700 }), fc.boolean(), async (runs, bs, asc) => {
      const model = new Map<number, number>();
      runs.forEach((rows) => rows.forEach(([t, v]) => model.set(t, v))); // later runs win
      const expected = [...model.entries()].sort((a, b) => (asc ? a[0] - b[0] : b[0] - a[0]));
      const merger = new RunMerger(runs.map((r, p) => arrayRun(r, p, bs, asc)), FieldType.Float, asc);
      const got: [number, number][] = [];
      for (let b = await merger.next(); b; b = await merger.next()) {
        assert.ok(b.offsets.length <= 1000);
        for (let i = 0; i < b.offsets.length; i++) got.push([b.offsets[i]!, (b.column.values as Float64Array)[i]!]);
      }
      assert.deepEqual(got, expected);
    }),
    { numRuns: 60 },
  );
});

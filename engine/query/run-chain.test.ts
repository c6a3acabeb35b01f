import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RunMerger } from './merge.js';
import { disjointInCursorOrder, RunChain } from './run-chain.js';
import type { RunBlock, SortedRun } from './run.js';
import { FieldType } from '../point.js';

/**
 * A run of blocks over ascending offsets starting at `from` (row counts: 0 is an empty block,
 * over 1000 more than one batch), bounded by its first and last offsets in cursor order; each
 * value names its run so a merge that takes the wrong source shows. nextNow answers or asks
 * for a read as `now` says, in turn.
 */
function run(from: number, counts: number[], withStats: boolean[], ascending: boolean, priority: number, now: boolean[]): SortedRun & { closed: boolean } {
  let t = from;
  let blocks: RunBlock[] = counts.map((n, j) => {
    const offsets = Float64Array.from({ length: n }, () => (t += 1 + (((t % 3) + 3) % 3)));
    const values = Float64Array.from(offsets, (o) => o * 0.5 + priority * 1e9);
    if (!ascending) {
      offsets.reverse();
      values.reverse();
    }
    const block: RunBlock = { offsets, column: { type: FieldType.Float, values } };
    if (withStats[j] && n > 0 && n <= 1000) return { ...block, stats: { count: n, firstOffset: offsets[0]!, lastOffset: offsets[n - 1]! } };
    return block;
  });
  if (!ascending) blocks = blocks.reverse();
  const lo = from + 1;
  const hi = Math.max(lo, t);
  let k = 0;
  const r: SortedRun & { closed: boolean } = {
    priority,
    startBound: ascending ? lo : hi,
    endBound: ascending ? hi : lo,
    closed: false,
    next: async () => blocks.shift() ?? null,
    nextNow: () => (now.length === 0 || now[k++ % now.length] ? (blocks.shift() ?? null) : undefined),
    close: () => void (r.closed = true),
  };
  return r;
}

/** Every row handed out as [offset, value], asked with nextNow first when `viaNow`. */
async function rows(src: RunMerger | RunChain, viaNow: boolean): Promise<[number, number][]> {
  const out: [number, number][] = [];
  for (;;) {
    const b = viaNow ? (src.nextNow() ?? (await src.next())) : await src.next();
    if (!b) return out;
    const values = b.column.values as Float64Array;
    b.offsets.forEach((o, i) => out.push([o, values[i]!]));
  }
}

const runArb = fc.record({
  gap: fc.integer({ min: -3000, max: 3000 }),
  counts: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 990, max: 2600 })), { maxLength: 4 }),
  stats: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
});

test('RunChain hands out the rows RunMerger merges from runs whose ranges do not overlap, in either direction; overlapping runs are left to RunMerger', async () => {
  let chained = 0;
  let overlapping = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(runArb, { minLength: 2, maxLength: 4 }), fc.boolean(), fc.array(fc.boolean(), { maxLength: 4 }), fc.boolean(), fc.boolean(), async (specs, asc, now, viaNow, shuffle) => {
      let at = 0;
      const make = () =>
        specs.map((s, p) => {
          const r = run(at + s.gap, s.counts, s.stats, asc, p, now);
          at = Math.max(r.startBound!, r.endBound!);
          return r;
        });
      at = 0;
      const forMerge = make();
      at = 0;
      const forChain = make();
      if (shuffle) forChain.reverse();
      const order = disjointInCursorOrder(forChain, asc);
      const merged = await rows(new RunMerger(forMerge, FieldType.Float, asc), viaNow);
      const bounds = forChain.map((r) => [Math.min(r.startBound!, r.endBound!), Math.max(r.startBound!, r.endBound!)] as const).sort((a, b) => a[0] - b[0]);
      const disjoint = bounds.every((b, i) => i === 0 || bounds[i - 1]![1] < b[0]);
      assert.equal(order !== undefined, disjoint);
      if (!order) {
        overlapping++;
        return;
      }
      chained++;
      const chain = new RunChain(order);
      assert.deepEqual(await rows(chain, viaNow), merged);
      chain.close();
      assert.ok(forChain.every((r) => r.closed));
    }),
    { numRuns: 300 },
  );
  assert.ok(chained > 50 && overlapping > 50, `both kinds generated (${chained} chained, ${overlapping} overlapping)`);
});

test('a run without both bounds is never chained', () => {
  const r = (startBound: number | undefined, endBound: number | undefined): SortedRun => ({ priority: 0, startBound, endBound, next: async () => null, close: () => undefined });
  assert.equal(disjointInCursorOrder([r(0, 5), r(10, undefined)], true), undefined);
  assert.equal(disjointInCursorOrder([r(undefined, 5), r(10, 20)], true), undefined);
  assert.deepEqual(disjointInCursorOrder([r(10, 20), r(0, 5)], true)?.map((x) => x.startBound), [0, 10]);
  assert.deepEqual(disjointInCursorOrder([r(5, 0), r(20, 10)], false)?.map((x) => x.startBound), [20, 5]);
  assert.equal(disjointInCursorOrder([r(0, 10), r(10, 20)], true), undefined); // a shared timestamp: the newer run must win
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RunMerger } from './merge.js';
import { OneRun } from './one-run.js';
import type { RunBlock, SortedRun } from './run.js';
import { FieldType } from '../point.js';

/** Blocks of a run: row counts (0: an empty block; over 1000: more than one batch) and whether a block carries stats. */
const blocksArb = fc.array(fc.tuple(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 990, max: 2600 })), fc.boolean()), { maxLength: 6 });

function makeBlocks(shape: [number, boolean][], ascending: boolean): RunBlock[] {
  let t = 0;
  const blocks = shape.map(([n, withStats]) => {
    const offsets = Float64Array.from({ length: n }, () => (t += 1 + (t % 3)));
    const values = Float64Array.from(offsets, (o) => o * 0.5);
    if (!ascending) {
      offsets.reverse();
      values.reverse();
    }
    const block: RunBlock = { offsets, column: { type: FieldType.Float, values } };
    // Stats only on blocks a stored file could pass whole (at most one batch of rows).
    if (withStats && n > 0 && n <= 1000) return { ...block, stats: { count: n, firstOffset: offsets[0]!, lastOffset: offsets[n - 1]! } };
    return block;
  });
  return ascending ? blocks : blocks.reverse();
}

/** A run over `blocks`; nextNow answers or asks for a read as `now` says, in turn. */
function run(blocks: RunBlock[], now: boolean[] | undefined): SortedRun & { closed: boolean } {
  const left = [...blocks];
  let k = 0;
  const r: SortedRun & { closed: boolean } = { priority: 0, closed: false, next: async () => left.shift() ?? null, close: () => void (r.closed = true) };
  if (now) r.nextNow = () => (now.length === 0 || now[k++ % now.length] ? (left.shift() ?? null) : undefined);
  return r;
}

/** Every batch as [rows, first offset, last offset, stats?, values], asked with nextNow first when `now`. */
async function batches(src: RunMerger | OneRun, viaNow: boolean): Promise<unknown[]> {
  const out: unknown[] = [];
  for (;;) {
    const b = viaNow ? (src.nextNow() ?? (await src.next())) : await src.next();
    if (!b) return out;
    const n = b.stats ? b.stats.count : b.offsets.length;
    out.push([n, Array.from(b.offsets), b.stats !== undefined, Array.from(b.column.values as Float64Array)]);
  }
}

test('OneRun hands out the batches RunMerger makes of a single run: empty blocks skipped, stats blocks whole, long blocks cut at 1000 rows, both directions, nextNow or reads', async () => {
  await fc.assert(
    fc.asyncProperty(blocksArb, fc.boolean(), fc.option(fc.array(fc.boolean(), { maxLength: 5 })), fc.boolean(), async (shape, asc, now, viaNow) => {
      const blocks = makeBlocks(shape, asc);
      const merged = await batches(new RunMerger([run(blocks, now ?? undefined)], FieldType.Float, asc), viaNow);
      const one = run(blocks, now ?? undefined);
      const cursor = new OneRun(one);
      assert.deepEqual(await batches(cursor, viaNow), merged);
      cursor.close();
      assert.ok(one.closed);
    }),
    { numRuns: 150 },
  );
});

test('OneRun passes a stored block with stats on without reading its rows (a StatsBlock decodes on access)', async () => {
  const undecoded = (count: number, first: number): RunBlock => ({
    stats: { count, firstOffset: first, lastOffset: first + count - 1 },
    get offsets(): Float64Array {
      throw new Error('decoded');
    },
    get column(): never {
      throw new Error('decoded');
    },
  });
  for (const now of [undefined, [true]]) {
    const cursor = new OneRun(run([undecoded(1000, 0), undecoded(10, 2000)], now));
    const counts: number[] = [];
    for (let b = cursor.nextNow() ?? (await cursor.next()); b; b = cursor.nextNow() ?? (await cursor.next())) counts.push(b.stats!.count);
    assert.deepEqual(counts, [1000, 10]);
  }
});

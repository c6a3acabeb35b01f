/**
 * Reducers that keep a whole group (stddev, percentile, mode) order millions of points when a
 * query asks over many series; they do it ahead of result() in steps (prepare), so the event
 * loop keeps turning. Prepared or not, the answer is the same, and prepare does pause on a
 * large group. The points' times are compared without bigints: the comparison agrees with
 * bigint arithmetic for any int64 base and offset.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType } from '../../../engine/index.js';
import { column } from '../test-support.js';
import { Collected } from './collect.js';
import { createReducer, type Reducer } from './index.js';
import type { PartialClock } from './partials.js';

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

test('Collected.compareTime agrees with bigint arithmetic', () => {
  const batch = fc.record({
    base: fc.bigInt(INT64),
    offsets: fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.constantFrom(2 ** 32, 2 ** 32 - 1, 2 ** 52, -(2 ** 52))), { minLength: 1, maxLength: 6 }),
  });
  fc.assert(
    fc.property(fc.array(batch, { minLength: 1, maxLength: 5 }), (batches) => {
      const c = new Collected();
      const times: bigint[] = [];
      for (const b of batches) {
        const t = b.offsets.map((o) => b.base + BigInt(o));
        if (t.some((x) => x < INT64.min || x > INT64.max)) return;
        times.push(...t);
        c.add(b.base, Float64Array.from(b.offsets), column(FieldType.Float, b.offsets.map(() => 1)), 0, b.offsets.length);
      }
      for (let i = 0; i < times.length; i++) {
        for (let j = 0; j < times.length; j++) {
          const want = times[i]! < times[j]! ? -1 : times[i]! > times[j]! ? 1 : 0;
          assert.equal(Math.sign(c.compareTime(i, j)), want, `${times[i]} vs ${times[j]}`);
        }
      }
    }),
    { numRuns: 500 },
  );
});

/** A group of several series, fed series after series in batches, as the executor feeds it. */
interface Group {
  readonly type: FieldType;
  readonly series: { base: bigint; times: number[]; values: number[] }[];
}

function feed(r: Reducer, clock: PartialClock, g: Group): void {
  g.series.forEach((s, k) => {
    clock.series = k;
    for (let from = 0; from < s.times.length; from += 1000) {
      const to = Math.min(s.times.length, from + 1000);
      r.add(s.base, Float64Array.from(s.times), column(g.type, s.values), from, to);
    }
  });
}

function answer(name: string, g: Group, descending: boolean, pause?: () => Promise<void> | undefined): Promise<unknown> {
  const clock: PartialClock = { series: 0, shard: 0n };
  // integral() buffers several series' points and merges them (ascending, or per window).
  const integral = { merged: true, clock, descending, ...(descending ? { window: { interval: 7_000_000_000n, offset: 0n } } : {}) };
  const r = createReducer(name, g.type, { partials: clock, percentile: 37, descending, integral });
  feed(r, clock, g);
  return (pause ? r.prepare!(pause) : Promise.resolve()).then(() => r.result());
}

const group: fc.Arbitrary<Group> = fc.record({
  type: fc.constantFrom(FieldType.Float, FieldType.Integer),
  series: fc.array(
    fc.record({
      base: fc.bigInt({ min: 1_600_000_000_000_000_000n, max: 1_600_000_100_000_000_000n }),
      // Few distinct times and values: shared timestamps across series and tied values.
      times: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 60 }).map((t) => t.sort((a, b) => a - b).map((x) => x * 1e9)),
      values: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 60, maxLength: 60 }),
    }),
    { minLength: 1, maxLength: 6 },
  ),
});

for (const name of ['stddev', 'percentile', 'median', 'mode', 'integral']) {
  test(`${name}(): prepared ahead or not, the same answer`, async () => {
    await fc.assert(
      fc.asyncProperty(group, fc.boolean(), async (g, descending) => {
        const plain = await answer(name, g, descending);
        const prepared = await answer(name, g, descending, () => undefined);
        assert.deepEqual(prepared, plain);
      }),
      { numRuns: 300 },
    );
  });
}

test('prepare pauses on a large group (200,000 points from 40 series), and the answer is unchanged', async () => {
  const series = Array.from({ length: 40 }, (_, k) => ({
    base: 1_600_000_000_000_000_000n + BigInt(k) * 3_000_000_000n,
    times: Array.from({ length: 5000 }, (_, i) => i * 1e9),
    values: Array.from({ length: 5000 }, (_, i) => ((i * 7919 + k * 104729) % 1009) / 4),
  }));
  for (const name of ['stddev', 'percentile', 'mode', 'integral']) {
    let pauses = 0;
    const g: Group = { type: FieldType.Float, series };
    const prepared = await answer(name, g, false, () => {
      pauses++;
      return undefined;
    });
    assert.ok(pauses > 0, `${name}: no pause`);
    assert.deepEqual(prepared, await answer(name, g, false));
  }
});

test('mode(): the check for a single most frequent value sorts in steps too', async () => {
  // Every value distinct but one, seen twice: the answer needs no replay, only the value sort.
  const values = Array.from({ length: 200_000 }, (_, i) => (i === 7 ? 3 : i * 2 + 1));
  const g: Group = { type: FieldType.Float, series: [{ base: 1_600_000_000_000_000_000n, times: values.map((_, i) => i * 1e9), values }] };
  let pauses = 0;
  const prepared = await answer('mode', g, false, () => {
    pauses++;
    return undefined;
  });
  assert.deepEqual(prepared, [{ value: 3 }]);
  assert.deepEqual(await answer('mode', g, false), prepared);
  assert.ok(pauses >= 3, `${pauses} pauses`);
});

test('integral(): the buffered points are integrated in prepare, in steps, not in result()', async () => {
  const series = Array.from({ length: 10 }, (_, k) => ({
    base: 1_600_000_000_000_000_000n + BigInt(k) * 3_000_000_000n,
    times: Array.from({ length: 20_000 }, (_, i) => i * 1e9),
    values: Array.from({ length: 20_000 }, (_, i) => (i * 31 + k) % 97),
  }));
  const g: Group = { type: FieldType.Float, series };
  // The merge alone, as integral() orders its points: how often it pauses.
  const clock: PartialClock = { series: 0, shard: 0n };
  const merge = new Collected(clock);
  g.series.forEach((s, k) => {
    clock.series = k;
    merge.add(s.base, Float64Array.from(s.times), column(g.type, s.values), 0, s.times.length);
  });
  let mergePauses = 0;
  await merge.prepareArrival(false, () => {
    mergePauses++;
    return undefined;
  });
  let pauses = 0;
  const prepared = await answer('integral', g, false, () => {
    pauses++;
    return undefined;
  });
  assert.deepEqual(prepared, await answer('integral', g, false));
  assert.ok(pauses - mergePauses >= 200_000 / (1 << 15) - 1, `${pauses} pauses, ${mergePauses} of them merging`);
});

/** One series of 2.2M points in one batch, reduced by `name` with or without prepare; the answer and how often it paused. */
async function largeGroup(name: string, valueAt: (i: number) => number): Promise<{ prepared: unknown; plain: unknown; pauses: number }> {
  const n = 2_200_000;
  const times = Float64Array.from({ length: n }, (_, i) => i * 1e9);
  const values = Array.from({ length: n }, (_, i) => valueAt(i));
  const run = async (pause?: () => undefined) => {
    const r = createReducer(name, FieldType.Float, { percentile: 37 });
    r.add(1_600_000_000_000_000_000n, times, column(FieldType.Float, values), 0, n);
    if (pause) await r.prepare!(pause);
    return r.result();
  };
  let pauses = 0;
  const prepared = await run(() => {
    pauses++;
    return undefined;
  });
  return { prepared, plain: await run(), pauses };
}

for (const name of ['percentile', 'median']) test(`${name}(): the selection of the value at the rank runs in steps`, async () => {
  const { prepared, plain, pauses } = await largeGroup(name, (i) => (i * 7919) % 2_200_013);
  assert.deepEqual(prepared, plain);
  // percentile: two scans of 2.2M values (a step per 2^20); both: the selection's partition passes.
  assert.ok(pauses >= (name === 'percentile' ? 6 : 3), `${pauses} pauses`);
});

test('stddev(): the sums over a large group run in prepare, in steps', async () => {
  const { prepared, plain, pauses } = await largeGroup('stddev', (i) => (i * 7919) % 1009);
  assert.deepEqual(prepared, plain);
  // Two passes over 2.2M points, a step per 2^20.
  assert.ok(pauses >= 4, `${pauses} pauses`);
});

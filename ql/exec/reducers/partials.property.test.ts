/**
 * Partials.result()'s one-shard path (no map copy, no sort) against the general merge it
 * shortcuts: the model below is that merge for every state, as Partials computed it before.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mergeMean, Partials, type Level, type PartialClock } from './partials.js';

/** The general merge: every shard's level copied, the running partial added, heap order, query level. */
function model(closed: ReadonlyMap<bigint, Level>, current: bigint, sum: number, n: number, mean: boolean): number | undefined {
  const merge = (level: Level, s: number, k: number) => (mean ? mergeMean(level, s / k, k) : ((level.sum += s), (level.n += k)));
  const shards = new Map([...closed].map(([k, l]) => [k, { ...l }]));
  if (n > 0) {
    const level = shards.get(current) ?? { sum: 0, n: 0 };
    shards.set(current, level);
    merge(level, sum, n);
  }
  if (shards.size === 0) return undefined;
  const keys = [...shards.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const order = [keys[0]!, ...keys.slice(1).reverse()];
  const all: Level = { sum: 0, n: 0 };
  for (const k of order) merge(all, shards.get(k)!.sum, shards.get(k)!.n);
  if (!mean) return all.sum;
  const top: Level = { sum: 0, n: 0 };
  mergeMean(top, all.sum / all.n, all.n);
  return top.sum / top.n;
}

const step = fc.record({ series: fc.integer({ min: 0, max: 2 }), shard: fc.constantFrom(0n, 604_800n, 1_209_600n), sum: fc.double({ noNaN: true, min: -1e6, max: 1e6 }), n: fc.integer({ min: 0, max: 4 }) });

describe('Partials.result() equals the general merge of its shards', () => {
  for (const mean of [false, true]) {
    it(mean ? 'mean' : 'sum', () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 6 }), step, (steps, last) => {
          const clock: PartialClock = { series: 0, shard: 0n };
          const p = new Partials(clock, mean);
          const closed = new Map<bigint, Level>();
          const merge = (level: Level, s: number, k: number) => (mean ? mergeMean(level, s / k, k) : ((level.sum += s), (level.n += k)));
          // As SumReducer and MeanReducer drive it: the running partial is folded when the clock moves.
          let running = { sum: 0, n: 0, shard: 0n };
          for (const s of [...steps, last]) {
            clock.series = s.series;
            clock.shard = s.shard;
            const shard = p.currentShard;
            if (p.moved()) {
              p.fold(running.sum, running.n, shard);
              if (running.n > 0) {
                const level = closed.get(shard) ?? { sum: 0, n: 0 };
                closed.set(shard, level);
                merge(level, running.sum, running.n);
              }
              running = { sum: 0, n: 0, shard: s.shard };
            }
            running.sum += s.sum;
            running.n += s.n;
          }
          const expected = model(closed, clock.shard, running.sum, running.n, mean);
          assert.equal(p.result(running.sum, running.n), expected);
          assert.equal(p.result(running.sum, running.n), expected, 'result() leaves the state as it is');
        }),
        { numRuns: 2000 },
      );
    });
  }
});

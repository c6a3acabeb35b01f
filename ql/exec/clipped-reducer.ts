/**
 * A reducer that takes only the points in [min, max] of what it is given. derivative & co read
 * their inner aggregate from one interval before the range; the query's other aggregates share
 * that read but 1.x computes them over the range alone, which differs in the first window when
 * the lower bound is not on a window boundary (the last one under ORDER BY time DESC).
 */
import type { Reducer } from './reducers/index.js';

const WRAPPED = new WeakMap<Reducer, Reducer>();

/** The reducer a clipped one takes its points to (the reducer itself when it is not clipped). */
export function unclipped(r: Reducer): Reducer {
  return WRAPPED.get(r) ?? r;
}

export function clippedReducer(r: Reducer, min: bigint, max: bigint): Reducer {
  const clipped: Reducer = {
    name: r.name,
    outputType: r.outputType,
    result: () => r.result(),
    ...(r.prepare ? { prepare: (pause: () => Promise<void> | undefined) => r.prepare!(pause) } : {}),
    add: (base, offsets, column, from, to) => {
      // One BigInt subtraction per run; the offsets are compared as numbers.
      const lo = Number(min - base);
      const hi = Number(max - base);
      let a = from;
      let b = to;
      while (a < b && offsets[a]! < lo) a++;
      while (b > a && offsets[b - 1]! > hi) b--;
      if (a < b) r.add(base, offsets, column, a, b);
    },
  };
  WRAPPED.set(clipped, r);
  return clipped;
}

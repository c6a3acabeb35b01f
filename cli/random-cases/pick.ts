/** Seeded choices for the random case generators (reproducible from the seed). */
import { mulberry32 } from '../../engine/index.js';

export interface Picker {
  /** Uniform in [0, 1). */
  readonly r: () => number;
  pick<T>(xs: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

export function picker(seed: number): Picker {
  const r = mulberry32(seed);
  return {
    r,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!,
    chance: (p: number) => r() < p,
  };
}

/** 2024-03-09 plus hours and minutes, as the RFC 3339 literal the shared dataset's cases use. */
export function at(hours: number, minutes = 0): string {
  return new Date(Date.UTC(2024, 2, 9) + hours * 3_600_000 + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

/** A bounded time range inside [lo, hi] hours (both bounds: GROUP BY time never reaches now()). */
export function timeRange(p: Picker, lo = 0, hi = 24): string {
  const s = lo + Math.floor(p.r() * (hi - lo));
  const e = s + 1 + Math.floor(p.r() * (hi - s));
  return `time >= '${at(s, p.pick([0, 0, 5, 17, 30]))}' AND time < '${at(e, p.pick([0, 0, 7, 45]))}'`;
}

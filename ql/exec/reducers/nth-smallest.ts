import { runSteps, type Steps } from '../steps.js';

/**
 * The k-th smallest (0-based) of NaN-free numbers, by Hoare selection: linear on average, where
 * a sort of a 10M-point group took a second. Reorders `a`.
 */
export function nthSmallest(a: Float64Array, k: number): number {
  return runSteps(nthSmallestSteps(a, k));
}

/** nthSmallest, yielding after each partition pass (the first reads all of `a`, each later about half the one before). */
export function* nthSmallestSteps(a: Float64Array, k: number): Steps<number> {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = lo + ((hi - lo) >> 1);
    // Median of three: sorted or reversed input (a series read in time order) stays linear.
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
    yield;
  }
  return a[k]!;
}

/**
 * Sort order of a cache column that was appended as a few ascending runs (concurrent writers
 * deliver bodies slightly out of time order, so a column is a handful of increasing stretches).
 * Merging the runs pairwise costs n·log2(runs) typed-array comparisons instead of a full
 * comparator sort. The result is exactly the order of a stable sort by (time, index): equal
 * times keep append order, so the caller can keep the last write of a timestamp.
 */

/**
 * Indices 0..n-1 ordered by (times[i], i). `starts` holds the first index of every run after
 * the first, ascending; within a run times must be non-decreasing.
 */
export function mergedRunOrder(times: Float64Array, n: number, starts: readonly number[]): Uint32Array {
  let src = new Uint32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  let bounds = [0, ...starts.filter((s) => s > 0 && s < n), n];
  if (bounds.length <= 2) return src;
  let dst = new Uint32Array(n);
  while (bounds.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r]!;
      const mid = bounds[r + 1]!;
      const hi = r + 2 < bounds.length ? bounds[r + 2]! : mid;
      mergeInto(times, src, dst, lo, mid, hi);
      next.push(hi);
    }
    if (next[next.length - 1] !== n) next.push(n);
    bounds = next;
    [src, dst] = [dst, src];
  }
  return src;
}

/** Stable merge of src[lo, mid) and src[mid, hi) into dst[lo, hi): ties take the left run. */
function mergeInto(times: Float64Array, src: Uint32Array, dst: Uint32Array, lo: number, mid: number, hi: number): void {
  let a = lo;
  let b = mid;
  let o = lo;
  while (a < mid && b < hi) {
    const ia = src[a]!;
    const ib = src[b]!;
    if (times[ib]! < times[ia]!) {
      dst[o++] = ib;
      b++;
    } else {
      dst[o++] = ia;
      a++;
    }
  }
  while (a < mid) dst[o++] = src[a++]!;
  while (b < hi) dst[o++] = src[b++]!;
}

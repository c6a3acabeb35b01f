/**
 * A Float64Array sorted as `Float64Array.prototype.sort()` sorts it (ascending, -0 before +0,
 * NaN last), in steps with `pause` between them. The native sort of a whole group is one
 * uninterruptible call: 1-2 s for mode()'s 10M points, during which no /ping, write or query
 * timeout was served. Here runs of RUN values are sorted natively (a few ms each) and then
 * merged pairwise, the merge pausing every STEP values.
 */

/** Values per natively sorted run (~5 ms of sort on the bench machine). */
const RUN = 1 << 16;
/** Values merged between pauses. */
const STEP = 1 << 17;

/** The native sort's order: a < b, with -0 before +0 and NaN after every number. */
function before(a: number, b: number): boolean {
  if (a < b) return true;
  if (a !== a) return false; // NaN
  if (b !== b) return true;
  return a === 0 && b === 0 && 1 / a < 0 && 1 / b > 0;
}

/** `values` sorted (a new array when runs were merged, else `values` itself sorted in place); `run`: for tests. */
export async function sortNumbersPausing(values: Float64Array<ArrayBuffer>, pause: () => Promise<void> | undefined, run = RUN): Promise<Float64Array<ArrayBuffer>> {
  const n = values.length;
  for (let a = 0; a < n; a += run) {
    values.subarray(a, Math.min(n, a + run)).sort();
    const wait = pause();
    if (wait) await wait;
  }
  let src = values;
  let dst = new Float64Array(n);
  let budget = STEP;
  for (let width = run; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (k < hi) {
        // Merge up to the budget, then let the loop turn.
        const stop = Math.min(hi, k + budget);
        budget -= stop - k;
        while (k < stop) dst[k++] = j >= hi || (i < mid && !before(src[j]!, src[i]!)) ? src[i++]! : src[j++]!;
        if (budget === 0) {
          budget = STEP;
          const wait = pause();
          if (wait) await wait;
        }
      }
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/**
 * A set of dirty GROUP BY windows as sorted, disjoint, non-adjacent half-open ranges
 * [start, end) of ns, each a whole number of windows. A write spanning years adds one range,
 * not millions of windows.
 */
export interface Range {
  readonly start: bigint;
  readonly end: bigint;
}

export class DirtyRanges {
  private ranges: Range[] = [];

  get size(): number {
    return this.ranges.length;
  }

  add(start: bigint, end: bigint): void {
    if (end <= start) return;
    const out: Range[] = [];
    let s = start;
    let e = end;
    let placed = false;
    for (const r of this.ranges) {
      if (r.end < s) out.push(r);
      else if (r.start > e) {
        if (!placed) out.push({ start: s, end: e });
        placed = true;
        out.push(r);
      } else {
        s = r.start < s ? r.start : s;
        e = r.end > e ? r.end : e;
      }
    }
    if (!placed) out.push({ start: s, end: e });
    this.ranges = out;
  }

  /** Remove and return every range. */
  take(): Range[] {
    const r = this.ranges;
    this.ranges = [];
    return r;
  }

  list(): readonly Range[] {
    return this.ranges;
  }
}

/** `r` cut into pieces of at most `maxLen` ns (maxLen a multiple of the window). */
export function chunks(r: Range, maxLen: bigint): Range[] {
  const out: Range[] = [];
  for (let s = r.start; s < r.end; s += maxLen) out.push({ start: s, end: s + maxLen < r.end ? s + maxLen : r.end });
  return out;
}

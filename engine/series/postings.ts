/** Sorted, duplicate-free series-id lists: intersection, union and difference by merging. */
export type Postings = readonly number[];

export function intersect(a: Postings, b: Postings): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out;
}

export function union(a: Postings, b: Postings): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}

export function difference(a: Postings, b: Postings): number[] {
  const out: number[] = [];
  let j = 0;
  for (const x of a) {
    while (j < b.length && b[j]! < x) j++;
    if (j >= b.length || b[j] !== x) out.push(x);
  }
  return out;
}

/** Union of many lists (k-way through pairwise merging, smallest first). */
export function unionAll(lists: Postings[]): number[] {
  if (lists.length === 0) return [];
  const work = lists.map((l) => [...l]).sort((x, y) => x.length - y.length);
  while (work.length > 1) {
    const a = work.shift()!;
    const b = work.shift()!;
    work.push(union(a, b));
    work.sort((x, y) => x.length - y.length);
  }
  return work[0]!;
}

/**
 * Go's container/heap, operation for operation. 1.x merges the series of a raw query with a
 * heap ordered by time only, so rows of several series that share a timestamp come out in
 * whatever order the heap's sift-ups and sift-downs leave them; replaying the same heap
 * reproduces that order (it is what decides which rows a LIMIT keeps).
 */
export class GoHeap<T> {
  readonly items: T[];

  /** heap.Init over `items` in the given order. */
  constructor(
    items: readonly T[],
    private readonly less: (a: T, b: T) => boolean,
  ) {
    this.items = [...items];
    const n = this.items.length;
    for (let i = Math.trunc(n / 2) - 1; i >= 0; i--) this.down(i, n);
  }

  get size(): number {
    return this.items.length;
  }

  push(x: T): void {
    this.items.push(x);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    const n = this.items.length - 1;
    if (n < 0) return undefined;
    this.swap(0, n);
    this.down(0, n);
    return this.items.pop();
  }

  private lessAt(i: number, j: number): boolean {
    return this.less(this.items[i]!, this.items[j]!);
  }

  private swap(i: number, j: number): void {
    const t = this.items[i]!;
    this.items[i] = this.items[j]!;
    this.items[j] = t;
  }

  private up(j: number): void {
    for (;;) {
      const i = Math.trunc((j - 1) / 2);
      if (i === j || !this.lessAt(j, i)) break;
      this.swap(i, j);
      j = i;
    }
  }

  private down(i0: number, n: number): void {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n) break;
      let j = j1;
      const j2 = j1 + 1;
      if (j2 < n && this.lessAt(j2, j1)) j = j2;
      if (!this.lessAt(j, i)) break;
      this.swap(i, j);
      i = j;
    }
  }
}

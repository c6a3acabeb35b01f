/**
 * A typed array filled front to back that doubles when full, with the copy into the doubled
 * buffer made ahead, a step per append, once the current one is more than half full. Doubling
 * at once meant one append that allocated and copied everything so far: with the three columns
 * of a 10M-point group (Collected) that was one step of 150-450 ms on this machine, during which
 * no other request was served. Ahead, each append copies about twice what it adds (so the copy
 * is done when the buffer fills) and the swap copies only what is left.
 *
 * Only appends touch the next buffer; readers always see `cur`, complete up to what was written.
 * Small arrays (below `aheadFrom`) just double: their copies cost nothing worth spreading.
 */
type Growable = Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer>;

/** Elements copied per append beyond twice the appended count. */
export const AHEAD_STEP = 1 << 16;

export class GrowingArray<A extends Growable> {
  #cur: A;
  #next: A | undefined;
  #copied = 0;

  constructor(
    private readonly make: (length: number) => A,
    initial = 64,
    private readonly aheadFrom = 1 << 20,
    private readonly step = AHEAD_STEP,
  ) {
    this.#cur = make(initial);
  }

  get cur(): A {
    return this.#cur;
  }

  /** Room for `need` elements, `n` of them written: the current buffer, or the next with the rest copied. */
  reserve(n: number, need: number): A {
    if (need <= this.#cur.length) return this.#cur;
    const next = this.#next !== undefined && this.#next.length >= need ? this.#next : undefined;
    if (next) {
      next.set(this.#cur.subarray(this.#copied, n), this.#copied);
      this.#cur = next;
    } else {
      const b = this.make(Math.max(need, this.#cur.length * 2));
      b.set(this.#cur.subarray(0, n));
      this.#cur = b;
    }
    this.#next = undefined;
    this.#copied = 0;
    return this.#cur;
  }

  /** After an append of `added` elements, `n` now written: copy ahead into the next buffer. */
  ahead(n: number, added: number): void {
    const cap = this.#cur.length;
    if (cap < this.aheadFrom) return;
    if (this.#next === undefined) {
      if (n * 2 <= cap) return;
      this.#next = this.make(cap * 2);
      this.#copied = 0;
    }
    const upto = Math.min(n, this.#copied + 2 * added + this.step);
    if (upto > this.#copied) this.#next.set(this.#cur.subarray(this.#copied, upto), this.#copied);
    this.#copied = upto;
  }
}

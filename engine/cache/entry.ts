/**
 * One series-field column of the in-memory cache: time offsets (ns from the shard start,
 * exact integers in a Float64Array) and typed values. Appends are O(1) amortised; the first
 * read after out-of-order or duplicate appends sorts once (stable) and keeps the last write
 * for a duplicate timestamp.
 */
import { FieldType, type ValueColumn } from '../point.js';
import { InvariantError } from '../errors.js';
import { mergedRunOrder } from './run-order.js';
import { OWN_BUFFERS, type ColumnMemory } from './column-arena.js';

type Store = Float64Array | BigInt64Array | BigUint64Array | Uint8Array | string[];
const INITIAL = 8;
/** Beyond this many out-of-order runs the column is treated as unordered (one comparator sort). */
const MAX_RUNS = 4096;
const NO_FLOATS = new Float64Array(0);

function allocValues(memory: ColumnMemory, type: FieldType, n: number): Store {
  switch (type) {
    case FieldType.Float:
    case FieldType.Integer:
    case FieldType.Unsigned:
      return memory.float64(n);
    case FieldType.Boolean:
      return memory.bytes(n);
    case FieldType.String:
      return [];
  }
}

/** An empty store of `n` rows of the same kind as `like`. */
function allocLike(memory: ColumnMemory, like: Store, n: number): Store {
  if (Array.isArray(like)) return [];
  if (like instanceof Float64Array) return memory.float64(n);
  if (like instanceof Uint8Array) return memory.bytes(n);
  if (like instanceof BigInt64Array) return memory.int64(n);
  return memory.uint64(n);
}

export class CacheEntry {
  private times: Float64Array;
  private values: Store;
  /**
   * `values` when it is a Float64Array (float and safe-integer columns), else an empty array:
   * appendNumber's fast path needs no type test of the store, and its capacity test covers
   * `times` too (both grow together).
   */
  private floats: Float64Array = NO_FLOATS;
  private n = 0;
  /** True while offsets are strictly increasing (no sort or dedupe needed). */
  private ordered = true;
  /** First index of each ascending run after the first (see run-order.ts); null: too many. */
  private runStarts: number[] | null = [];
  private stringBytes = 0;

  /**
   * @param capacity initial rows (a hint: the entry grows as needed)
   * @param memory where the columns are allocated (the cache's arena)
   */
  constructor(
    readonly type: FieldType,
    capacity = INITIAL,
    private readonly memory: ColumnMemory = OWN_BUFFERS,
  ) {
    const n = Math.max(INITIAL, capacity);
    this.times = memory.float64(n);
    this.values = allocValues(memory, type, n);
    this.floats = floatsOf(this.values);
  }

  get length(): number {
    return this.n;
  }

  /** Approximate heap bytes, for snapshot thresholds. */
  get sizeBytes(): number {
    return this.n * (this.type === FieldType.Boolean ? 9 : 16) + this.stringBytes + 64;
  }

  get minOffset(): number {
    this.normalize();
    return this.n ? this.times[0]! : 0;
  }

  get maxOffset(): number {
    this.normalize();
    return this.n ? this.times[this.n - 1]! : 0;
  }

  append(offset: number, value: number | bigint | boolean | string): void {
    if (this.n === this.times.length) this.grow();
    if (this.n > 0 && offset <= this.times[this.n - 1]!) this.noteRunStart();
    this.times[this.n] = offset;
    const v = this.values;
    if (typeof value === 'bigint') {
      this.widen();
      (this.values as BigInt64Array | BigUint64Array)[this.n] = value;
    } else if (v instanceof Float64Array) {
      v[this.n] = value as number;
    } else if (v instanceof BigInt64Array || v instanceof BigUint64Array) {
      v[this.n] = BigInt(value as number);
    } else if (v instanceof Uint8Array) {
      v[this.n] = value ? 1 : 0;
    } else {
      v.push(value as string);
      this.stringBytes += (value as string).length * 2;
    }
    this.n++;
  }

  /**
   * append() for a value already in its column form: a float, a safe integer, or a boolean
   * as 0/1 (what a ColumnBatch holds outside `boxed`). Not for string columns.
   */
  appendNumber(offset: number, value: number): void {
    const n = this.n;
    const t = this.times;
    const f = this.floats;
    if (n < f.length && (n === 0 || offset > t[n - 1]!)) {
      t[n] = offset;
      f[n] = value;
      this.n = n + 1;
      return;
    }
    this.appendNumberSlow(offset, value);
  }

  /** appendNumber when the column is full, out of order, or not a Float64Array. */
  private appendNumberSlow(offset: number, value: number): void {
    const n = this.n;
    if (n === this.times.length) this.grow();
    if (n > 0 && offset <= this.times[n - 1]!) this.noteRunStart();
    this.times[n] = offset;
    const v = this.values;
    if (v instanceof Float64Array || v instanceof Uint8Array) v[n] = value;
    else if (v instanceof BigInt64Array || v instanceof BigUint64Array) v[n] = BigInt(value);
    else throw new InvariantError(`number appended to a ${this.type} column`);
    this.n = n + 1;
  }

  private noteRunStart(): void {
    this.ordered = false;
    const runs = this.runStarts;
    if (runs === null) return;
    if (runs.length < MAX_RUNS) runs.push(this.n);
    else this.runStarts = null;
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const t = this.memory.float64(cap);
    t.set(this.times);
    this.times = t;
    const v = this.values;
    if (Array.isArray(v)) return;
    const nv = allocLike(this.memory, v, cap);
    (nv as { set(a: typeof v): void }).set(v);
    this.values = nv;
    this.floats = floatsOf(nv);
  }

  /** Switch an integer column to exact 64-bit storage when a value beyond 2^53 arrives. */
  private widen(): void {
    const v = this.values;
    if (!(v instanceof Float64Array)) return;
    const wide = this.type === FieldType.Unsigned ? this.memory.uint64(v.length) : this.memory.int64(v.length);
    if (this.type !== FieldType.Integer && this.type !== FieldType.Unsigned) {
      throw new InvariantError(`bigint value for a ${this.type} column`);
    }
    for (let i = 0; i < this.n; i++) wide[i] = BigInt(v[i]!);
    this.values = wide;
    this.floats = NO_FLOATS;
  }

  /** Sort by time (stable) and keep the last write of each timestamp. */
  private normalize(): void {
    if (this.ordered) return;
    const n = this.n;
    const t = this.times;
    const idx = this.runStarts ? mergedRunOrder(t, n, this.runStarts) : sortedOrder(t, n);
    const nt = this.memory.float64(Math.max(INITIAL, n));
    const src = this.values;
    const dst = allocLike(this.memory, src, nt.length);
    let out = 0;
    for (let k = 0; k < n; k++) {
      const i = idx[k]!;
      // A later index with the same time overrides: only emit the last of a run.
      if (k + 1 < n && t[idx[k + 1]!] === t[i]) continue;
      nt[out] = t[i]!;
      if (Array.isArray(dst)) dst.push((src as string[])[i]!);
      else (dst as Float64Array)[out] = (src as Float64Array)[i]!;
      out++;
    }
    this.times = nt;
    this.values = dst;
    this.floats = floatsOf(dst);
    this.n = out;
    this.ordered = true;
    this.runStarts = [];
    if (Array.isArray(dst)) this.stringBytes = dst.reduce((s, x) => s + x.length * 2, 0);
  }

  /** Sorted, deduplicated view. The arrays are owned by the entry: copy before the next append. */
  view(): { offsets: Float64Array; column: ValueColumn } {
    this.normalize();
    const offsets = this.times.subarray(0, this.n);
    return { offsets, column: this.column(0, this.n) };
  }

  private column(from: number, to: number): ValueColumn {
    const v = this.values;
    switch (this.type) {
      case FieldType.Float:
        return { type: FieldType.Float, values: (v as Float64Array).subarray(from, to) };
      case FieldType.Integer:
        return { type: FieldType.Integer, values: (v as Float64Array | BigInt64Array).subarray(from, to) };
      case FieldType.Unsigned:
        return { type: FieldType.Unsigned, values: (v as Float64Array | BigUint64Array).subarray(from, to) };
      case FieldType.Boolean:
        return { type: FieldType.Boolean, values: (v as Uint8Array).subarray(from, to) };
      case FieldType.String:
        return { type: FieldType.String, values: (v as string[]).slice(from, to) };
    }
  }

  /**
   * Remove rows whose offset is in [min, max] (DELETE on cached data). Copy-on-write: views
   * handed out earlier (a flush in progress) keep seeing consistent old rows. Returns rows removed.
   */
  removeRange(min: number, max: number): number {
    this.normalize();
    const t = this.times;
    const v = this.values;
    let keep = 0;
    for (let i = 0; i < this.n; i++) if (t[i]! < min || t[i]! > max) keep++;
    const removed = this.n - keep;
    if (removed === 0) return 0;
    const nt = this.memory.float64(Math.max(INITIAL, keep));
    const nv = allocLike(this.memory, v, nt.length);
    let out = 0;
    for (let i = 0; i < this.n; i++) {
      if (t[i]! >= min && t[i]! <= max) continue;
      nt[out] = t[i]!;
      if (Array.isArray(nv)) nv.push((v as string[])[i]!);
      else (nv as Float64Array)[out] = (v as Float64Array)[i]!;
      out++;
    }
    this.times = nt;
    this.values = nv;
    this.floats = floatsOf(nv);
    this.n = out;
    this.runStarts = [];
    if (Array.isArray(nv)) this.stringBytes = nv.reduce((s, x) => s + x.length * 2, 0);
    return removed;
  }
}

function floatsOf(values: Store): Float64Array {
  return values instanceof Float64Array ? values : NO_FLOATS;
}

/** Indices ordered by (time, index): the general case, for columns appended in no useful order. */
function sortedOrder(t: Float64Array, n: number): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx.sort((a, b) => t[a]! - t[b]! || a - b);
}

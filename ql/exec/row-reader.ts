/**
 * Join the cursors of several fields of ONE series into rows by time: each row has the time
 * and one value per requested field (null where that field has no point at that time).
 * Streams: holds one batch per field.
 */
import { FieldType, type Batch, type Cursor, type ValueColumn } from '../../engine/index.js';
import type { Scalar } from './value.js';

export interface Row {
  readonly time: bigint;
  readonly values: Scalar[];
}

export function cellAt(col: ValueColumn, i: number): Scalar {
  const v = col.values[i];
  if (v === undefined) return null;
  if (col.type === FieldType.Boolean) return v === 1;
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
  return v as Scalar;
}

interface Head {
  cursor: Cursor;
  batch: Batch | null;
  /** rowsIn(batch), taken once per batch. */
  rows: number;
  i: number;
  done: boolean;
}

export class RowReader {
  private readonly heads: Head[];

  constructor(
    cursors: readonly Cursor[],
    private readonly ascending: boolean,
  ) {
    this.heads = cursors.map((cursor) => ({ cursor, batch: null, rows: 0, i: 0, done: false }));
  }

  private async fill(h: Head): Promise<void> {
    while (!this.fillNow(h)) this.take(h, await h.cursor.next());
  }

  /** Gives `h` a batch with rows (or marks it done) as far as its cursor answers without a read; false when it must read. */
  private fillNow(h: Head): boolean {
    while (!h.done && (!h.batch || h.i >= h.rows)) {
      const b = h.cursor.nextNow?.();
      if (b === undefined) return false;
      this.take(h, b);
    }
    return true;
  }

  private take(h: Head, b: Batch | null): void {
    h.batch = b;
    h.rows = b ? rowsIn(b) : 0;
    h.i = 0;
    if (!b) h.done = true;
  }

  /** Each head's current point in the last `next()`: its batch base and offset (base undefined: exhausted). */
  private readonly bases: (bigint | undefined)[] = [];
  private readonly offs: number[] = [];

  /** Next row, or null when every cursor is exhausted. */
  async next(): Promise<Row | null> {
    for (const h of this.heads) if (!h.done && (!h.batch || h.i >= h.rows)) await this.fill(h);
    return this.nextNow()!;
  }

  /**
   * The next row without awaiting: null when every cursor is exhausted, undefined (nothing
   * consumed) when a cursor must read its next batch first; call next() then. Heads are
   * compared by offset when their batches share a base (the same shard, the usual case) and
   * one BigInt time is made per row. It runs once per row of every raw query with several
   * fields or a WHERE on fields, so it is kept tight, and readers call it first because an
   * async call per row (a promise and a microtask turn) cost more than the join itself.
   */
  nextNow(): Row | null | undefined {
    const heads = this.heads;
    const bases = this.bases;
    const offs = this.offs;
    let bestBase: bigint | undefined;
    let bestOff = 0;
    for (const h of heads) if (!h.done && (!h.batch || h.i >= h.rows) && !this.fillNow(h)) return undefined;
    for (let k = 0; k < heads.length; k++) {
      const h = heads[k]!;
      const b = h.batch;
      if (h.done || !b) {
        if (!h.done) return undefined;
        bases[k] = undefined;
        continue;
      }
      if (h.i >= h.rows) return undefined;
      const off = h.i === 0 && b.stats ? b.stats.firstOffset : b.offsets[h.i]!;
      bases[k] = b.base;
      offs[k] = off;
      if (bestBase === undefined || this.before(b.base, off, bestBase, bestOff)) {
        bestBase = b.base;
        bestOff = off;
      }
    }
    if (bestBase === undefined) return null;
    const values: Scalar[] = new Array<Scalar>(heads.length).fill(null);
    for (let k = 0; k < heads.length; k++) {
      const base = bases[k];
      if (base === undefined || !sameTime(base, offs[k]!, bestBase, bestOff)) continue;
      const h = heads[k]!;
      const b = h.batch!;
      // A row at the start of a stored block: only its value is decoded (lastpoint reads one row per block).
      values[k] = h.i === 0 && b.head ? cellAt(b.head(), 0) : cellAt(b.column, h.i);
      h.i++;
    }
    return { time: bestBase + BigInt(bestOff), values };
  }

  /** Whether (base, off) comes before (bestBase, bestOff) in cursor order. */
  private before(base: bigint, off: number, bestBase: bigint, bestOff: number): boolean {
    if (base === bestBase) return this.ascending ? off < bestOff : off > bestOff;
    const t = base + BigInt(off);
    const best = bestBase + BigInt(bestOff);
    return this.ascending ? t < best : t > best;
  }

  close(): void {
    for (const h of this.heads) h.cursor.close();
  }
}

/**
 * Rows in a batch. A stats batch (a whole stored block) tells its count and first offset
 * without decoding its timestamps, so a reader that takes only its first row (ORDER BY time
 * DESC LIMIT 1: lastpoint) decodes only the values.
 */
function rowsIn(b: Batch): number {
  return b.stats ? b.stats.count : b.offsets.length;
}

function sameTime(base: bigint, off: number, bestBase: bigint, bestOff: number): boolean {
  return base === bestBase ? off === bestOff : base + BigInt(off) === bestBase + BigInt(bestOff);
}

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
  i: number;
  done: boolean;
}

export class RowReader {
  private readonly heads: Head[];

  constructor(
    cursors: readonly Cursor[],
    private readonly ascending: boolean,
  ) {
    this.heads = cursors.map((cursor) => ({ cursor, batch: null, i: 0, done: false }));
  }

  private async fill(h: Head): Promise<void> {
    while (!h.done && (!h.batch || h.i >= h.batch.offsets.length)) {
      h.batch = await h.cursor.next();
      h.i = 0;
      if (!h.batch) h.done = true;
    }
  }

  /** Time of each head's current point in the last `next()` (undefined: exhausted). */
  private readonly times: (bigint | undefined)[] = [];

  /**
   * Next row, or null when every cursor is exhausted. Per row and field this computes the
   * head's time once and awaits only when a batch is used up: it runs once per row of every
   * raw query with several fields or a WHERE on fields, so it is kept tight.
   */
  async next(): Promise<Row | null> {
    const heads = this.heads;
    const times = this.times;
    let best: bigint | undefined;
    for (let k = 0; k < heads.length; k++) {
      const h = heads[k]!;
      if (!h.done && (!h.batch || h.i >= h.batch.offsets.length)) await this.fill(h);
      const b = h.batch;
      if (h.done || !b) {
        times[k] = undefined;
        continue;
      }
      const t = b.base + BigInt(b.offsets[h.i]!);
      times[k] = t;
      if (best === undefined || (this.ascending ? t < best : t > best)) best = t;
    }
    if (best === undefined) return null;
    const values: Scalar[] = new Array<Scalar>(heads.length).fill(null);
    for (let k = 0; k < heads.length; k++) {
      if (times[k] !== best) continue;
      const h = heads[k]!;
      values[k] = cellAt(h.batch!.column, h.i);
      h.i++;
    }
    return { time: best, values };
  }

  close(): void {
    for (const h of this.heads) h.cursor.close();
  }
}

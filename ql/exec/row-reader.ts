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

  /** Next row, or null when every cursor is exhausted. */
  async next(): Promise<Row | null> {
    let best: bigint | undefined;
    for (const h of this.heads) {
      await this.fill(h);
      if (h.done || !h.batch) continue;
      const t = h.batch.base + BigInt(h.batch.offsets[h.i]!);
      if (best === undefined || (this.ascending ? t < best : t > best)) best = t;
    }
    if (best === undefined) return null;
    const values: Scalar[] = new Array(this.heads.length).fill(null);
    this.heads.forEach((h, k) => {
      if (h.done || !h.batch) return;
      if (h.batch.base + BigInt(h.batch.offsets[h.i]!) === best) {
        values[k] = cellAt(h.batch.column, h.i);
        h.i++;
      }
    });
    return { time: best, values };
  }

  close(): void {
    for (const h of this.heads) h.cursor.close();
  }
}

/**
 * One series of one retention policy as points: the per-field cursors (engine.cursor, which
 * merges cache, snapshots and TSM files, hides deleted rows and resolves duplicates) merged
 * by timestamp, so each line carries every field written at that time.
 */
import { FieldType, type Cursor, type Engine, type Field, type Point, type SeriesInfo, type ValueColumn } from '../engine/index.js';

interface Head {
  readonly field: string;
  readonly cursor: Cursor;
  base: bigint;
  offsets: Float64Array;
  column: ValueColumn | undefined;
  i: number;
}

async function advance(h: Head): Promise<boolean> {
  if (h.column && h.i < h.offsets.length) return true;
  const b = await h.cursor.next();
  if (!b) {
    h.column = undefined;
    return false;
  }
  h.base = b.base;
  h.offsets = b.offsets;
  h.column = b.column;
  h.i = 0;
  return true;
}

function valueAt(key: string, c: ValueColumn, i: number): Field {
  switch (c.type) {
    case FieldType.Float:
      return { key, type: c.type, value: c.values[i]! };
    case FieldType.Integer:
      return { key, type: c.type, value: c.values[i]! };
    case FieldType.Unsigned:
      return { key, type: c.type, value: c.values[i]! };
    case FieldType.Boolean:
      return { key, type: c.type, value: c.values[i] !== 0 };
    case FieldType.String:
      return { key, type: c.type, value: c.values[i]! };
  }
}

const NS = 1_000_000_000n;

/** Points of `series` in `rp` within [startNs, endNs], ascending by time. */
export async function* seriesPoints(
  engine: Engine,
  db: string,
  rp: string,
  series: SeriesInfo,
  fields: readonly string[],
  startNs: bigint,
  endNs: bigint,
): AsyncGenerator<Point> {
  const heads: Head[] = fields.map((field) => ({
    field,
    cursor: engine.cursor({ db, rp, measurement: series.measurement, seriesKey: series.key, field, startNs, endNs, ascending: true }),
    base: 0n,
    offsets: new Float64Array(0),
    column: undefined,
    i: 0,
  }));
  try {
    let live = [];
    for (const h of heads) if (await advance(h)) live.push(h);
    while (live.length > 0) {
      let min: bigint | undefined;
      for (const h of live) {
        const t = h.base + BigInt(h.offsets[h.i]!);
        if (min === undefined || t < min) min = t;
      }
      if (min === undefined) break;
      const out: Field[] = [];
      const next: Head[] = [];
      for (const h of live) {
        if (h.base + BigInt(h.offsets[h.i]!) === min) {
          out.push(valueAt(h.field, h.column!, h.i));
          h.i++;
          if (!(await advance(h))) continue;
        }
        next.push(h);
      }
      live = next;
      let sec = min / NS;
      let nsec = min - sec * NS;
      if (nsec < 0n) {
        sec -= 1n;
        nsec += NS;
      }
      yield { seriesKey: series.key, measurement: series.measurement, tags: series.tags, fields: out, sec: Number(sec), nsec: Number(nsec) };
    }
  } finally {
    for (const h of heads) h.cursor.close();
  }
}

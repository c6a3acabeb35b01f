/**
 * Where a ColumnBatch's typed columns sit in one buffer: the 8-byte columns first, then the
 * 4-byte ones, then the bytes, so every view is aligned when the layout starts on an 8-byte
 * boundary. The parse worker writes a batch's columns through these views and the event loop
 * reads them back through the same views, over a shared slot (parse-slots.ts) or over the
 * one buffer a batch is transferred in.
 *
 * Why one buffer: every ArrayBuffer that arrives on the event loop (a transferred column, a
 * body copy handed back) is counted by V8 as newly allocated external memory, and that count
 * is part of the old generation's allocation limit: ~100 bytes per line of it started a
 * mark-compact of the whole heap every few hundred milliseconds under ingest (perf/README.md).
 * Columns written into a slot both threads already hold count nothing.
 */
import type { ColumnBatch } from './columns.js';

export interface ColumnCounts {
  readonly points: number;
  readonly values: number;
  /** Length of `kinds` (three numbers per kind). */
  readonly kinds: number;
}

export type ColumnViews = Pick<ColumnBatch, 'pointSeries' | 'sec' | 'nsec' | 'fieldEnd' | 'fieldName' | 'fieldType' | 'num' | 'kinds'>;

/** Bytes the columns take from an 8-aligned start. */
export function layoutBytes(c: ColumnCounts): number {
  return 8 * (c.points + c.values) + 4 * (3 * c.points + c.values + c.kinds) + c.values;
}

export function alignUp8(n: number): number {
  return (n + 7) & ~7;
}

/** The column views over `buffer` from byte `at` (a multiple of 8; layoutBytes(c) must fit). */
export function columnViews(buffer: ArrayBufferLike, at: number, c: ColumnCounts): ColumnViews {
  if (at % 8 !== 0 || at + layoutBytes(c) > buffer.byteLength) throw new RangeError(`column layout of ${layoutBytes(c)} bytes at ${at} does not fit ${buffer.byteLength}`);
  const { points: n, values: m, kinds: k } = c;
  let p = at;
  const take = (bytes: number): number => {
    const start = p;
    p += bytes;
    return start;
  };
  const sec = new Float64Array(buffer, take(8 * n), n);
  const num = new Float64Array(buffer, take(8 * m), m);
  const pointSeries = new Uint32Array(buffer, take(4 * n), n);
  const nsec = new Int32Array(buffer, take(4 * n), n);
  const fieldEnd = new Uint32Array(buffer, take(4 * n), n);
  const fieldName = new Uint32Array(buffer, take(4 * m), m);
  const kinds = new Uint32Array(buffer, take(4 * k), k);
  const fieldType = new Uint8Array(buffer, take(m), m);
  return { pointSeries, sec, nsec, fieldEnd, fieldName, fieldType, num, kinds };
}

/**
 * The one place a ColumnBatch object is made, whichever way its columns came: written into a
 * slot (parse-slots.ts), transferred from a parse worker (parse-pool.ts) or built on this
 * thread (column-builder.ts). Spreading the views object or the worker's deserialized batch
 * made objects of several hidden classes (five in the first 36 sensor batches of a server,
 * measured with %HaveSameMap), and the cache apply's optimized code deoptimised ("wrong map")
 * at each new one early in a run (perf/README.md, section 11). One literal listing every
 * field in one order gives every batch the same hidden class.
 */
import type { ColumnViews } from './column-layout.js';
import type { ColumnBatch } from './columns.js';

export function columnBatch(v: ColumnViews, rest: Pick<ColumnBatch, 'series' | 'fieldNames' | 'boxed' | 'errors' | 'minSec'>): ColumnBatch {
  return {
    pointSeries: v.pointSeries,
    sec: v.sec,
    nsec: v.nsec,
    fieldEnd: v.fieldEnd,
    fieldName: v.fieldName,
    fieldType: v.fieldType,
    num: v.num,
    kinds: v.kinds,
    series: rest.series,
    fieldNames: rest.fieldNames,
    boxed: rest.boxed,
    errors: rest.errors,
    minSec: rest.minSec,
  };
}

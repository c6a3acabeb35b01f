/**
 * Reading a group into dense windows (dense-windows.ts): one ascending cursor per series and
 * field, each batch added to the calls over that field.
 */
import type { FieldType } from '../../engine/index.js';
import { callFillType } from './call-fill.js';
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { eachBatch } from './each-batch.js';
import { DenseWindows, type DenseLayout } from './dense-windows.js';
import type { GroupRun } from './select-raw.js';
import type { SeriesRef } from './source.js';

/**
 * The group's rows in ascending time, or undefined when a batch needs the general path. Not an
 * async function: a group whose blocks are all in memory is answered without a promise (the
 * common small query; each promise and await is a turn of the microtask queue, and costs most
 * while V8 still interprets this code). A cursor that must read goes on asynchronously.
 */
export function runDenseGroup(g: GroupRun, calls: readonly AggCall[], types: ReadonlyMap<string, FieldType>, layout: DenseLayout): Cell[][] | undefined | Promise<Cell[][] | undefined> {
  const { plan, source, ctx } = g;
  const windows = new DenseWindows(layout, calls.map((c) => c.reducer));
  const byField = new Map<string, number[]>();
  calls.forEach((c, i) => {
    if (!types.has(c.field)) return;
    const list = byField.get(c.field);
    if (list) list.push(i);
    else byField.set(c.field, [i]);
  });
  const reads: { readonly ref: SeriesRef; readonly field: string; readonly idx: readonly number[] }[] = [];
  for (const ref of g.series) for (const [field, idx] of byField) reads.push({ ref, field, idx });
  const from = (k: number): Cell[][] | undefined | Promise<Cell[][] | undefined> => {
    for (; k < reads.length; k++) {
      const { ref, field, idx } = reads[k]!;
      const cursor = source.cursor(ref, field, plan.time.min, plan.time.max, true);
      let whole: boolean | Promise<boolean>;
      try {
        whole = eachBatch(cursor, ctx, (b) => windows.addBatch(b, idx));
      } catch (err) {
        cursor.close();
        throw err;
      }
      if (whole instanceof Promise) {
        const next = k + 1;
        return whole.finally(() => cursor.close()).then((ok) => (ok ? from(next) : undefined));
      }
      cursor.close();
      if (!whole) return undefined;
    }
    return windows.rows({
      fill: plan.stmt.fill,
      outputTypes: calls.map((c) => callFillType(c.expr, plan.schema)),
      nested: plan.nested === true,
      ascending: plan.ascending,
      fillsUnseen: g.fillsUnseen,
    });
  };
  return from(0);
}

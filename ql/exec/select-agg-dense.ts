/**
 * Reading a group into dense windows (dense-windows.ts): one ascending cursor per series and
 * field, each batch added to the calls over that field.
 */
import { FieldType } from '../../engine/index.js';
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { eachBatch } from './each-batch.js';
import { DenseWindows, type DenseLayout } from './dense-windows.js';
import type { GroupRun } from './select-raw.js';

/** The group's rows in ascending time, or undefined when a batch needs the general path. */
export async function runDenseGroup(g: GroupRun, calls: readonly AggCall[], types: ReadonlyMap<string, FieldType>, layout: DenseLayout): Promise<Cell[][] | undefined> {
  const { plan, source, ctx } = g;
  const windows = new DenseWindows(layout, calls.map((c) => c.reducer));
  const byField = new Map<string, number[]>();
  calls.forEach((c, i) => {
    if (!types.has(c.field)) return;
    const list = byField.get(c.field);
    if (list) list.push(i);
    else byField.set(c.field, [i]);
  });
  for (const ref of g.series) {
    for (const [field, idx] of byField) {
      const cursor = source.cursor(ref, field, plan.time.min, plan.time.max, true);
      try {
        if (!(await eachBatch(cursor, ctx, (b) => windows.addBatch(b, idx)))) return undefined;
      } finally {
        cursor.close();
      }
    }
  }
  return windows.rows({
    fill: plan.stmt.fill,
    outputTypes: calls.map((c) => (c.reducer === 'count' ? FieldType.Integer : (types.get(c.field) ?? FieldType.Float))),
    nested: plan.nested === true,
    ascending: plan.ascending,
  });
}

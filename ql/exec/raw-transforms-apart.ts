/**
 * Several transforms of raw fields in one statement (`elapsed(a, 1s), difference(b)`): 1.x
 * builds one iterator per transform, each merging the series of the group over its own field
 * (so points of several series sharing a time meet its heap in that field's order) and each
 * limited by LIMIT/OFFSET on its own, then joins their outputs by time: where the columns hold
 * several values at one time, the k-th row takes the k-th value of each, null where a column
 * has fewer. Here each column runs as a statement of its own (the single-transform path) and the
 * outputs are joined the same way.
 */
import type { Cell } from '../result.js';
import { TRANSFORMS } from '../plan/functions.js';
import { callsIn } from '../plan/projection.js';
import type { SelectPlan } from './select-plan.js';
import { rawLayout, runRawGroup, type GroupRun } from './select-raw.js';

/** Whether the statement's columns are two or more, each holding a transform. */
export function transformsApart(plan: SelectPlan): boolean {
  const cols = plan.projection.columns;
  return plan.projection.shape === 'raw' && cols.length > 1 && cols.every((c) => callsIn(c.expr).some((k) => TRANSFORMS.has(k.name.toLowerCase())));
}

export async function runTransformsApart(g: GroupRun): Promise<Cell[][]> {
  const { plan } = g;
  const outputs: Cell[][][] = [];
  for (const column of plan.projection.columns) {
    const one: SelectPlan = { ...plan, projection: { ...plan.projection, columns: [column] } };
    const run: GroupRun = { ...g, plan: one };
    outputs.push(await runRawGroup(run, undefined, undefined, rawLayout(one, g.source, g.rowFilter)));
  }
  return joinByTime(outputs, plan.ascending);
}

function joinByTime(outputs: readonly (readonly Cell[][])[], ascending: boolean): Cell[][] {
  const byTime = new Map<bigint, Cell[][]>();
  outputs.forEach((rows, col) => {
    for (const r of rows) {
      const t = r[0] as bigint;
      let cols = byTime.get(t);
      if (!cols) byTime.set(t, (cols = outputs.map(() => [])));
      cols[col]!.push(r[1] ?? null);
    }
  });
  const times = [...byTime.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (!ascending) times.reverse();
  const out: Cell[][] = [];
  for (const t of times) {
    const cols = byTime.get(t)!;
    const n = Math.max(...cols.map((c) => c.length));
    for (let k = 0; k < n; k++) out.push([t, ...cols.map((c) => c[k] ?? null)]);
  }
  return out;
}

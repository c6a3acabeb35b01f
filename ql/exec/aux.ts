/**
 * Auxiliary columns of a lone selector (`SELECT max(x), y, host ...`): the values of the
 * other fields and tags at the selected point, from the series that holds that point.
 */
import { isTag } from '../plan/projection.js';
import { RowReader, cellAt } from './row-reader.js';
import type { GroupRun } from './select-raw.js';
import type { Scalar } from './value.js';

export type AuxLookup = (name: string, hint: string | null) => Scalar;

export async function findAux(g: GroupRun, field: string, time: bigint, value: Scalar, auxFields: readonly string[]): Promise<AuxLookup | undefined> {
  for (const ref of g.series) {
    // A subquery's series may hold several rows at one time: the selected one is the k-th.
    const k = await rowWith(g, ref, field, time, value);
    if (k < 0) continue;
    const fields = auxFields.filter((f) => g.source.fieldTypes().has(f));
    let values: Scalar[] = [];
    if (k === 0) {
      const reader = new RowReader(fields.map((f) => g.source.cursor(ref, f, time, time, true)), true);
      try {
        values = (await reader.next())?.values ?? [];
      } finally {
        reader.close();
      }
    } else {
      values = await Promise.all(fields.map(async (f) => (await valuesAt(g, ref, f, time))[k] ?? null));
    }
    return (name, hint) => {
      if (isTag(name, hint, g.plan.schema)) return ref.tags[name] ?? null;
      const i = fields.indexOf(name);
      return i < 0 ? null : (values[i] ?? null);
    };
  }
  return undefined;
}

/** The values of a field at one time in one series (several only in a subquery's series). */
async function valuesAt(g: GroupRun, ref: GroupRun['series'][number], field: string, time: bigint): Promise<Scalar[]> {
  const c = g.source.cursor(ref, field, time, time, true);
  try {
    const b = await c.next();
    if (!b) return [];
    return Array.from({ length: b.offsets.length }, (_, i) => cellAt(b.column, i));
  } finally {
    c.close();
  }
}

/** Index of the row holding `value` at `time`; NaN (a subquery's math or stddev()) finds NaN. */
async function rowWith(g: GroupRun, ref: GroupRun['series'][number], field: string, time: bigint, value: Scalar): Promise<number> {
  return (await valuesAt(g, ref, field, time)).findIndex((v) => Object.is(v, value) || v === value);
}

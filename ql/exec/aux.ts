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
    const c = g.source.cursor(ref, field, time, time, true);
    let hit = false;
    try {
      const b = await c.next();
      if (b && b.offsets.length > 0) {
        const v = cellAt(b.column, 0);
        hit = v === value || (typeof v === 'number' && typeof value === 'number' && v === value);
      }
    } finally {
      c.close();
    }
    if (!hit) continue;
    const fields = auxFields.filter((f) => g.source.fieldTypes().has(f));
    const reader = new RowReader(fields.map((f) => g.source.cursor(ref, f, time, time, true)), true);
    let values: Scalar[] = [];
    try {
      values = (await reader.next())?.values ?? [];
    } finally {
      reader.close();
    }
    return (name, hint) => {
      if (isTag(name, hint, g.plan.schema)) return ref.tags[name] ?? null;
      const i = fields.indexOf(name);
      return i < 0 ? null : (values[i] ?? null);
    };
  }
  return undefined;
}

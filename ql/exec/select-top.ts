/**
 * top(x, tag..., N) / bottom(x, tag..., N): per window, the best point of every distinct
 * combination of the tag arguments, then the N best of those (ties: earlier time first),
 * output in time order with the tag values as extra columns (1.x).
 */
import { FieldType } from '../../engine/index.js';
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { eachBatch } from './each-batch.js';
import { evaluate } from './eval.js';
import { createReducer, type Reducer } from './reducers/index.js';
import { findAux } from './aux.js';
import { isTag } from '../plan/projection.js';
import { evalTypes, fieldRefs, type GroupRun } from './select-raw.js';
import type { SeriesRef } from './source.js';
import type { Scalar } from './value.js';
import { forEachWindowRun, window as windowOf } from './window.js';
import { forEachPassingRow, singleValueColumn } from './passing-rows.js';

interface Candidate {
  readonly tuple: readonly string[];
  readonly time: bigint;
  readonly value: Scalar;
  /** The series the point came from: auxiliary columns read its tags and fields. */
  readonly ref: SeriesRef;
}

function better(a: Candidate, b: Candidate, top: boolean): number {
  const x = Number(a.value);
  const y = Number(b.value);
  if (x !== y) return top ? y - x : x - y;
  return a.time < b.time ? -1 : a.time > b.time ? 1 : 0;
}

export async function runTopWithTags(g: GroupRun, call: AggCall): Promise<Cell[][]> {
  const { plan, source } = g;
  const spec = plan.window;
  const type = source.fieldTypes().get(call.field);
  if (type === undefined) return [];
  const top = call.reducer === 'top';
  // window start -> tag tuple -> best point so far, over every series with that tuple
  const windows = new Map<bigint, Map<string, Candidate>>();
  for (const ref of g.series) {
    const tuple = call.tagArgs.map((t) => ref.tags[t] ?? '');
    const tkey = tuple.join('\u0000');
    const perWindow = new Map<bigint, Reducer>();
    const reducerAt = (start: bigint): Reducer => {
      let r = perWindow.get(start);
      if (!r) perWindow.set(start, (r = createReducer(top ? 'max' : 'min', type, {})));
      return r;
    };
    if (g.rowFilter) {
      // A WHERE on fields: only the points of rows it keeps compete.
      await forEachPassingRow(g, ref, [call.field], plan.time.min, plan.time.max, (time, valueOf) => {
        const col = singleValueColumn(type, valueOf(call.field));
        if (col) reducerAt(spec ? windowOf(time, spec).start : 0n).add(time, Float64Array.of(0), col, 0, 1);
      });
    } else {
      const cursor = source.cursor(ref, call.field, plan.time.min, plan.time.max, true);
      try {
        await eachBatch(cursor, g.ctx, (b) => {
          const { base, offsets, column } = b;
          if (spec) forEachWindowRun(base, offsets, 0, offsets.length, spec, (start, _e, from, to) => reducerAt(start).add(base, offsets, column, from, to));
          else reducerAt(0n).add(base, offsets, column, 0, offsets.length);
        });
      } finally {
        cursor.close();
      }
    }
    for (const [start, r] of perWindow) {
      const res = r.result()[0];
      if (!res || res.time === undefined) continue;
      const cand: Candidate = { tuple, time: res.time, value: res.value as Scalar, ref };
      let m = windows.get(start);
      if (!m) windows.set(start, (m = new Map()));
      const prev = m.get(tkey);
      if (!prev || better(cand, prev, top) < 0) m.set(tkey, cand);
    }
  }
  const rows: Cell[][] = [];
  const types = evalTypes(source);
  // A field named as a tag argument groups as '' (it is no tag) but shows its value at the point (1.x).
  const fieldArgs = call.tagArgs.filter((t) => !plan.schema.tags.has(t) && plan.schema.fields.has(t));
  const auxFields = [...new Set([...fieldRefs(plan.projection.columns.map((col) => col.expr), plan), ...fieldArgs])].filter((f) => f !== call.field);
  for (const start of [...windows.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const cands = [...windows.get(start)!.values()];
    cands.sort((a, b) => better(a, b, top));
    const chosen = cands.slice(0, call.args.n ?? 1).sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
    for (const c of chosen) {
      const aux = auxFields.length ? await findAux({ ...g, series: [c.ref] }, call.field, c.time, c.value, auxFields) : undefined;
      const scope = {
        time: c.time,
        lookup: (name: string, hint: string | null) => {
          const i = call.tagArgs.indexOf(name);
          // A series without that tag groups as '' but shows null (1.x).
          if (i >= 0 && !(aux && fieldArgs.includes(name))) return c.tuple[i] || null;
          if (i >= 0) return aux!(name, 'field');
          // The call's own field beside it (`top(n, host, 3), n`) is the selected value.
          if (name === call.field && !isTag(name, hint, plan.schema)) return c.value;
          return aux ? aux(name, hint) : (c.ref.tags[name] ?? null);
        },
        call: (e: unknown) => (e === call.expr ? c.value : undefined),
      };
      rows.push([c.time, ...plan.projection.columns.map((col) => evaluate(col.expr, scope, types))]);
    }
  }
  return rows;
}

export const INTEGER_TYPES = new Set([FieldType.Integer, FieldType.Unsigned]);

/**
 * A transform (derivative, difference, moving_average, elapsed, cumulative_sum, ...) of an
 * outer aggregate over a run stream (run-stream-windows.ts), as 1.x answers it: its transform
 * iterator reads the aggregate's rows as they come, after their interval and fill iterators
 * (select.go buildCallIterator), so it pairs each row with the one before in stream order,
 * also where the runs go back in time (a negative elapsed time; under ORDER BY time DESC the
 * sign turns, as for rows in order), skips rows without a value and a row at the time of the
 * one before, and bounds nothing: every row it makes is answered. The aggregate's options were
 * moved one interval early (late under DESC) for the transform (not for cumulative_sum()), so
 * its fill iterator starts there, and the inner runs start there too (subqueryRange).
 * Several transforms (every call of the statement one) are each such a stream, cut by LIMIT and
 * OFFSET on their own and joined as 1.x's cursor joins its iterators (run-stream-windows.ts
 * joinedRows: the earliest head time, the latest under DESC; a transform without a row there
 * gets the scanner's default). A plain call beside them (`max(a) * 2, cumulative_sum(count(a))`)
 * is one more such stream, its rows reduced and filled as a call alone's (run-stream-windows.ts
 * windowRows); beside a transform that reads early it reads the subquery over another range in
 * 1.x (an iterator per call): that statement is split first (per-call-ranges.ts).
 */
import { FieldType } from '../../engine/index.js';
import { isIntegerOutput, type AggCall, type AggTransform } from './agg-calls.js';
import type { Cell } from '../result.js';
import { callFillValue } from './call-fill.js';
import { callKey, evaluate, type RowScope } from './eval.js';
import { readEnd, readStart } from './agg-read-range.js';
import { callType, filledRunRows, scannerDefaults } from './run-stream-fill.js';
import { windowRows } from './run-stream-windows.js';
import { evalTypes, transformArgs, type GroupRun } from './select-raw.js';
import { createTransform, runTransform, type Transform, type TransformName } from './transform.js';
import type { Scalar, TimedValue } from './value.js';

/** The statement's rows: each transform's and plain call's rows, cut by LIMIT and OFFSET, joined, then the columns computed from them. */
export async function runStreamTransformRows(g: GroupRun, transforms: readonly AggTransform[], plain: readonly AggCall[]): Promise<Cell[][]> {
  const { offset, limit, fill } = g.plan.stmt;
  const page = <T>(rows: T[]): T[] => rows.slice(offset, limit > 0 ? offset + limit : undefined);
  const made = await Promise.all(transforms.map((t) => runStreamTransform(g, t)));
  const calls = await Promise.all(plain.map((c) => plainCallRows(g, c)));
  const streams = [...made.map((m) => m.rows), ...calls].map(page);
  const keys = [...transforms.map((t) => t.key), ...plain.map((c) => c.key)];
  const outTypes = [...made.map((m) => m.transform.outputType), ...plain.map((c) => callType(g, c))];
  const types = evalTypes(g.source, new Map(keys.map((k, i) => [k, outTypes[i] !== undefined && isIntegerOutput(outTypes[i])])));
  const missing = outTypes.map((t) => callFillValue(fill, t, 'cursor'));
  const at = streams.map(() => 0);
  const before = (a: bigint, b: bigint): boolean => (g.plan.ascending ? a < b : a > b);
  const out: Cell[][] = [];
  let prev: readonly Scalar[] = [];
  for (;;) {
    let t: bigint | undefined;
    streams.forEach((s, i) => {
      const head = s[at[i]!]?.time;
      if (head !== undefined && (t === undefined || before(head, t))) t = head;
    });
    if (t === undefined) return out;
    const values = streams.map((s, i) => (s[at[i]!]?.time === t ? s[at[i]!++]!.value : fill.mode === 'previous' ? (prev[i] ?? null) : missing[i]!));
    prev = values;
    const slots = new Map(keys.map((k, i) => [k, values[i]!]));
    const scope: RowScope = { time: t, lookup: () => null, call: (e) => (e.kind === 'Call' ? slots.get(callKey(e)) : undefined) };
    out.push([t, ...g.plan.projection.columns.map((c) => evaluate(c.expr, scope, types) as Cell)]);
  }
}

/** The transform's rows in stream order (before LIMIT and OFFSET), with the transform made (its output type). */
async function runStreamTransform(g: GroupRun, t: AggTransform): Promise<{ rows: TimedValue[]; transform: Transform }> {
  const { plan } = g;
  const early = t.name !== 'cumulative_sum';
  const time = { ...plan.time, min: readStart(plan, early), max: readEnd(plan, early) };
  const moved: GroupRun = { ...g, plan: { ...plan, time } };
  const filled = filledRunRows(moved, [t.inner], await windowRows(g, [t.inner], []));
  const transform = createTransform(t.name as TransformName, callType(g, t.inner) ?? FieldType.Float, transformArgs(t.expr, plan.ascending, plan.window?.interval));
  const rows = runTransform(
    transform,
    filled.map((r) => ({ time: r[0] as bigint, value: (r[1] ?? null) as Scalar })),
  );
  return { rows, transform };
}

/** A plain call's rows in stream order (before LIMIT and OFFSET): its stretches reduced and filled, a nil point given the scanner's default. */
async function plainCallRows(g: GroupRun, c: AggCall): Promise<TimedValue[]> {
  const rows = filledRunRows(g, [c], await windowRows(g, [c], []));
  scannerDefaults(g, [c], [], rows);
  return rows.map((r) => ({ time: r[0] as bigint, value: (r[1] ?? null) as Scalar }));
}

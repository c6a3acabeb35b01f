/**
 * DenseWindows answers what the general path answers (select-agg.ts: a reducer per window
 * through forEachWindowRun, fill.ts per aggregate, then the join by time), on random batches of
 * several series with window offsets, empty windows, every dense fill mode, both orders, and
 * batches that carry stats.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType, type Batch } from '../../engine/index.js';
import type { FillOption } from '../ast/nodes.js';
import type { Cell } from '../result.js';
import { DenseWindows, type DenseLayout } from './dense-windows.js';
import { fillSeries, type FillMode } from './fill.js';
import { createReducer, type Reducer } from './reducers/index.js';
import type { Scalar, TimedValue } from './value.js';
import { forEachWindowRun, window, windowSpec, type WindowSpec } from './window.js';

interface Call {
  readonly reducer: 'count' | 'min' | 'max';
  readonly field: number;
}

interface Case {
  readonly spec: WindowSpec;
  readonly min: bigint;
  readonly max: bigint;
  readonly calls: readonly Call[];
  readonly columnCalls: readonly number[];
  /** Per series, per field: batches in ascending time. */
  readonly data: readonly (readonly Batch[])[][];
  readonly fill: FillOption;
  readonly ascending: boolean;
  readonly nested: boolean;
  readonly type: FieldType;
}

const T0 = 1_451_606_400_000_000_000n;

/** A batch of points `times` (ascending), with its own base, optionally with its stats. */
function batch(times: readonly bigint[], values: readonly number[], baseShift: bigint, type: FieldType, withStats: boolean): Batch {
  const base = times[0]! - baseShift;
  const offsets = Float64Array.from(times.map((t) => Number(t - base)));
  const column = { type, values: Float64Array.from(values) } as Batch['column'];
  if (!withStats) return { base, offsets, column };
  let minRow = 0;
  let maxRow = 0;
  values.forEach((v, i) => {
    if (v < values[minRow]!) minRow = i;
    if (v > values[maxRow]!) maxRow = i;
  });
  const stats = { count: times.length, firstOffset: offsets[0]!, lastOffset: offsets[offsets.length - 1]!, min: values[minRow]!, max: values[maxRow]!, minRow, maxRow };
  return { base, offsets, column, stats };
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    interval: fc.constantFrom(7n, 10n, 60n, 1000n),
    offset: fc.bigInt({ min: -999n, max: 999n }),
    span: fc.integer({ min: 1, max: 600 }),
    lead: fc.integer({ min: 0, max: 50 }),
    nFields: fc.integer({ min: 1, max: 2 }),
    calls: fc.array(fc.record({ reducer: fc.constantFrom('count' as const, 'min' as const, 'max' as const), field: fc.nat() }), { minLength: 1, maxLength: 3 }),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    series: fc.array(
      fc.array(
        fc.record({
          // Sparse or dense points, some windows left empty.
          times: fc.uniqueArray(fc.integer({ min: 0, max: 600 }), { maxLength: 40 }),
          values: fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 40, maxLength: 40 }),
          cuts: fc.array(fc.nat(), { maxLength: 4 }),
          shifts: fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 5, maxLength: 5 }),
          stats: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        }),
        { minLength: 2, maxLength: 2 },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    fill: fc.oneof(
      fc.constantFrom<FillOption>({ mode: 'null' }, { mode: 'none' }, { mode: 'previous' }),
      fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -3, max: 3, noNaN: true })).map((value): FillOption => ({ mode: 'number', value })),
    ),
    ascending: fc.boolean(),
    nested: fc.boolean(),
    float: fc.boolean(),
  })
  .map((r): Case => {
    const spec = windowSpec(r.interval, r.offset);
    const min = T0 + BigInt(r.lead);
    const max = min + BigInt(r.span);
    const type = r.float ? FieldType.Float : FieldType.Integer;
    const data = r.series.map((fields) =>
      fields.slice(0, r.nFields).map((f) => {
        const times = f.times.filter((t) => t <= r.span).sort((a, b) => a - b).map((t) => min + BigInt(t));
        const values = times.map((_, i) => f.values[i]! + (r.float ? 0.5 : 0));
        const bounds = [...new Set([0, ...f.cuts.map((c) => c % (times.length + 1)), times.length])].sort((a, b) => a - b);
        const out: Batch[] = [];
        for (let b = 0; b + 1 < bounds.length; b++) {
          const [from, to] = [bounds[b]!, bounds[b + 1]!];
          if (to > from) out.push(batch(times.slice(from, to), values.slice(from, to), f.shifts[b % 5]!, type, f.stats[b % 5]! && windowOfBatch(times, from, to, spec)));
        }
        return out;
      }),
    );
    const calls = r.calls.map((c) => ({ reducer: c.reducer, field: c.field % r.nFields }));
    return { spec, min, max, calls, columnCalls: r.picks.map((p) => p % calls.length), data, fill: r.fill, ascending: r.ascending, nested: r.nested, type };
  });

/** Stats stand for a batch only when it lies in one window (the engine's cursor may set them on any whole block). */
function windowOfBatch(times: readonly bigint[], from: number, to: number, spec: WindowSpec): boolean {
  return window(times[from]!, spec).start === window(times[to - 1]!, spec).start;
}

function outputType(c: Call, type: FieldType): FieldType {
  return c.reducer === 'count' ? FieldType.Integer : type;
}

/** The general path: reducers per window, fill per call, join by time. */
function general(k: Case): Cell[][] {
  const windows = new Map<bigint, Reducer[]>();
  for (const fields of k.data) {
    fields.forEach((batches, field) => {
      for (const b of batches) {
        forEachWindowRun(b.base, b.offsets, 0, b.offsets.length, k.spec, (start, _end, from, to) => {
          let rs = windows.get(start);
          if (!rs) windows.set(start, (rs = k.calls.map((c) => createReducer(c.reducer, k.type))));
          k.calls.forEach((c, i) => {
            if (c.field === field) rs.at(i)!.add(b.base, b.offsets, b.column, from, to);
          });
        });
      }
    });
  }
  const starts = [...windows.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const perCall = k.calls.map((_c, i) => {
    const series: TimedValue[] = [];
    for (const s of starts) {
      const first = windows.get(s)![i]!.result()[0];
      if (first) series.push({ time: s, value: first.value as Scalar });
    }
    return series;
  });
  // fill(N): every (typed) call is filled in the rows the others make (call-fill.ts).
  const rowsMade = k.fill.mode === 'number' && perCall.some((s) => s.length > 0);
  const filled = k.calls.map((c, i) => {
    const series = perCall[i]!;
    return fillSeries(k.ascending ? series : series.reverse(), {
      mode: k.fill.mode as FillMode,
      value: k.fill.mode === 'number' ? k.fill.value : undefined,
      valueType: outputType(c, k.type),
      window: k.spec,
      startNs: k.min,
      endNs: k.max,
      descending: !k.ascending,
      call: k.nested ? undefined : c.reducer,
      fillsUnseen: rowsMade,
    });
  });
  const maps = filled.map((s) => new Map(s.map((x) => [x.time, x.value])));
  const times = [...new Set(filled.flatMap((s) => s.map((x) => x.time)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return times.map((t) => [t, ...k.columnCalls.map((c) => maps[c]!.get(t) ?? null)]);
}

function dense(k: Case): Cell[][] {
  const first = window(k.min, k.spec).start;
  const layout: DenseLayout = { first, interval: k.spec.interval, count: Number((window(k.max, k.spec).start - first) / k.spec.interval) + 1, columnCalls: k.columnCalls };
  const w = new DenseWindows(layout, k.calls.map((c) => c.reducer));
  for (const fields of k.data) {
    fields.forEach((batches, field) => {
      const idx = k.calls.flatMap((c, i) => (c.field === field ? [i] : []));
      if (idx.length === 0) return;
      for (const b of batches) assert.ok(w.addBatch(b, idx));
    });
  }
  return w.rows({ fill: k.fill, outputTypes: k.calls.map((c) => outputType(c, k.type)), nested: k.nested, ascending: k.ascending });
}

test('DenseWindows: the general path answer on random batches, offsets, empty windows, fills, orders, stats', () => {
  fc.assert(
    fc.property(caseArb, (k) => {
      assert.deepEqual(dense(k), general(k));
    }),
    { numRuns: 3000 },
  );
});

test('DenseWindows: min/max of a column that is not Float64 hands the group back', () => {
  const layout: DenseLayout = { first: 0n, interval: 10n, count: 3, columnCalls: [0] };
  const bigints: Batch = { base: 0n, offsets: Float64Array.of(1, 12), column: { type: FieldType.Integer, values: BigInt64Array.of(1n, 2n ** 60n) } };
  assert.equal(new DenseWindows(layout, ['max']).addBatch(bigints, [0]), false);
  const counted = new DenseWindows(layout, ['count']);
  assert.equal(counted.addBatch(bigints, [0]), true);
  assert.deepEqual(counted.rows({ fill: { mode: 'none' }, outputTypes: [FieldType.Integer], nested: false, ascending: true }), [
    [0n, 1],
    [10n, 1],
  ]);
});

/**
 * StddevStream against 1.6.7's answers for two series of large integers in 30 s windows (the
 * data of case s-k700, recorded from 1.6.7): the 00:00:30 window depends on where the merge
 * started, which a heap per window cannot see.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../../engine/index.js';
import type { PartialClock } from './partials.js';
import { StddevReducer } from './stddev.js';
import { StddevStream } from './stddev-stream.js';

const S = 1_000_000_000n;
const T0 = 1_704_067_200n * S;
const MAX = 9223372036854775807n;
/** [series, second, value] as written, series after series. */
const POINTS: [number, number, bigint][] = [
  ...([[0, -(MAX + 1n)], [10, -(MAX + 1n)], [20, MAX], [30, 9007199254740993n], [40, MAX], [50, MAX], [60, 1n], [70, MAX]] as const).map(([s, v]): [number, number, bigint] => [0, s, v]),
  ...([[10, 4611686018427387904n], [20, 1000000000000000000n], [30, 3037000500n], [40, MAX], [50, 3037000500n], [60, MAX - 1n]] as const).map(([s, v]): [number, number, bigint] => [1, s, v]),
];

/** Series after series, each oldest first (as the executor reads them, also under DESC). */
function feed(fromSec: number, add: (clock: PartialClock, windowStart: bigint, time: bigint, v: bigint) => void): void {
  const clock: PartialClock = { series: 0, shard: 0n };
  for (const [series, sec, v] of POINTS) {
    if (sec < fromSec) continue;
    clock.series = series;
    add(clock, T0 + BigInt(Math.floor(sec / 30) * 30) * S, T0 + BigInt(sec) * S, v);
  }
}

function column(v: bigint) {
  return { type: FieldType.Integer, values: BigInt64Array.of(v) } as const;
}

function streamed(fromSec: number, newestFirst = false): Map<bigint, number | undefined> {
  let stream: StddevStream | undefined;
  const views = new Map<bigint, ReturnType<StddevStream['windowView']>>();
  feed(fromSec, (clock, start, time, v) => {
    stream ??= new StddevStream(clock, newestFirst);
    let view = views.get(start);
    if (!view) views.set(start, (view = stream.windowView(FieldType.Float, start, start + 30n * S)));
    view.add(time, Float64Array.of(0), column(v), 0, 1);
  });
  return new Map([...views].map(([start, r]) => [start, r.result()[0]?.value as number | undefined]));
}

test('the windows of one merge: 1.6.7 values, also under DESC and from a later start', () => {
  const w30 = T0 + 30n * S;
  assert.equal(streamed(0).get(w30), 5050205508642323456);
  assert.equal(streamed(0, true).get(w30), 5050205508642324480);
  assert.equal(streamed(20).get(w30), 5050205508642324480);
  assert.equal(streamed(0).get(T0 + 60n * S), 5325116328314172000);
  assert.equal(streamed(0, true).get(T0 + 60n * S), 5325116328314171000);
});

test('a heap per window answers the 00:00:30 window otherwise (what 1.6.7 does not)', () => {
  const reducers = new Map<bigint, StddevReducer>();
  feed(0, (clock, start, time, v) => {
    let r = reducers.get(start);
    if (!r) reducers.set(start, (r = new StddevReducer(clock)));
    r.add(time, Float64Array.of(0), column(v), 0, 1);
  });
  assert.equal(reducers.get(T0 + 30n * S)!.result()[0]!.value, 5050205508642324480);
});

/**
 * GROUP BY time(...) TZ() across DST transitions in zones with midnight, half-hour and
 * unusual switches, recorded from influxd 1.6.7 (fixtures/ql-exec/tz-oracle.json): window
 * runs + count + fill(0) must give the same labels and counts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FieldType } from '../../engine/index.js';
import { createReducer } from './reducers/index.js';
import type { Reducer } from './reducers/index.js';
import { fillSeries } from './fill.js';
import { forEachWindowRun, windowSpec } from './window.js';
import type { TimedValue } from './value.js';
import { column } from './test-support.js';

interface Fixture {
  ranges: [number, number][];
  stepSec: number;
  plusNs: number;
  cases: { q: string; zone: string; start: string; end: string; group: string; rows: [string, number][] }[];
}
const fx = JSON.parse(readFileSync(new URL('../../../fixtures/ql-exec/tz-oracle.json', import.meta.url), 'utf8')) as Fixture;
const MS = 1_000_000n;
const S = 1_000_000_000n;
const ns = (iso: string): bigint => BigInt(Date.parse(iso)) * MS;
const UNITS: Record<string, bigint> = { m: 60n * S, h: 3600n * S, d: 86400n * S };
const dur = (s: string): bigint => BigInt(s.slice(0, -1)) * (UNITS[s.slice(-1)] as bigint);

const points: bigint[] = [];
for (const [a, b] of fx.ranges) for (let t = a; t < b; t += fx.stepSec) points.push(BigInt(t) * S + BigInt(fx.plusNs));

describe('TZ windows across DST (influxd 1.6.7)', () => {
  for (const c of fx.cases) {
    it(`${c.zone} ${c.group} ${c.start}`, () => {
      const m = /^time\((\w+)(?:, (-?\w+))?\)$/.exec(c.group);
      if (!m) assert.fail(c.group);
      const spec = windowSpec(dur(m[1] as string), m[2] ? dur(m[2]) : 0n, c.zone);
      const start = ns(c.start);
      const end = ns(c.end) - 1n;
      const pts = points.filter((t) => t >= start && t <= end);
      const base = (pts[0] ?? 0n) - 1000n;
      const offsets = Float64Array.from(pts.map((t) => Number(t - base)));
      const col = column(FieldType.Integer, pts.map(() => 1));
      const groups = new Map<bigint, Reducer>();
      forEachWindowRun(base, offsets, 0, pts.length, spec, (ws, _we, from, to) => {
        let r = groups.get(ws);
        if (!r) groups.set(ws, (r = createReducer('count', FieldType.Integer)));
        r.add(base, offsets, col, from, to);
      });
      const rows: TimedValue[] = [...groups].map(([time, r]) => ({ time, value: r.result()[0]?.value ?? null }));
      const out = fillSeries(rows, { mode: 'number', value: 0, valueType: FieldType.Integer, window: spec, startNs: start, endNs: end });
      assert.deepEqual(out.map((r) => [String(r.time), r.value]), c.rows);
    });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuOnly, edgeSensors, TSBS_START } from './datasets.js';
import { FieldType } from '../engine/index.js';

test('cpu-only: 100 hosts × 10 tags × 10 integer fields in 0..100 every 10 s, deterministic', () => {
  const series = [...cpuOnly({ points: 50 }).series()];
  assert.equal(series.length, 100);
  for (const s of series) {
    assert.equal(s.tags.length, 10);
    assert.equal(s.fields.length, 10);
    assert.equal(s.base, TSBS_START);
    assert.equal(s.offsets[1]! - s.offsets[0]!, 10e9);
    for (const f of s.fields) {
      assert.equal(f.column.type, FieldType.Integer);
      for (const v of f.column.values as Float64Array) assert.ok(Number.isInteger(v) && v >= 0 && v <= 100);
    }
  }
  const again = [...cpuOnly({ points: 50 }).fields()];
  const once = [...cpuOnly({ points: 50 }).fields()];
  assert.deepEqual(again.map((f) => Array.from(f.column.values as Float64Array)), once.map((f) => Array.from(f.column.values as Float64Array)));
  // A series does not depend on how many points or series are generated.
  const short = [...cpuOnly({ points: 10, series: 3 }).fields()][25]!;
  assert.deepEqual(Array.from(short.column.values as Float64Array), Array.from((once[25]!.column.values as Float64Array).subarray(0, 10)));
});

test('cpu-only floats keep full precision; line protocol is time-major', () => {
  const f = cpuOnly({ points: 20, series: 2, floats: true }).fields().next().value!;
  assert.equal(f.column.type, FieldType.Float);
  assert.ok((f.column.values as Float64Array).some((v) => !Number.isInteger(v * 1e6)));
  const lines = [...cpuOnly({ points: 3, series: 2 }).lines()];
  assert.equal(lines.length, 6);
  assert.match(lines[0]!, /^cpu,hostname=host_0,region=[^ ]+ usage_user=\d+i,.*usage_guest_nice=\d+i 1451606400000000000$/);
  assert.match(lines[1]!, /^cpu,hostname=host_1,/);
  assert.match(lines[2]!, / 1451606410000000000$/);
});

test('edge sensors: 100 devices, 3 tags, 1–4 quantised fields every 1 s', () => {
  const series = [...edgeSensors({ points: 100 }).series()];
  assert.equal(series.length, 100);
  assert.deepEqual([...new Set(series.map((s) => s.fields.length))].sort(), [1, 2, 3, 4]);
  for (const s of series) {
    assert.equal(s.tags.length, 3);
    assert.equal(s.offsets[1]! - s.offsets[0]!, 1e9);
    for (const f of s.fields) {
      const v = f.column.values as Float64Array;
      const step = { temperature: 10, humidity: 20, battery: 1, rssi: 1 }[f.name as 'rssi'];
      for (const x of v) assert.equal(Math.round(x * step) / step, x, `${f.name} ${x}`);
    }
  }
  assert.match([...edgeSensors({ points: 1, series: 1 }).lines()][0]!, /^sensors,device_id=dev_0,model=[^,]+,site=site_\d temperature=\d+(\.\d)? 1451606400000000000$/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeriesIndex, type IndexDelta } from './index.js';
import { FieldType, type Point } from '../point.js';
import { CardinalityLimitError, FieldTypeConflictError } from '../errors.js';

function pt(m: string, tags: Record<string, string>, fields: Record<string, number>, type: FieldType = FieldType.Float): Point {
  const t = Object.entries(tags).sort().map(([key, value]) => ({ key, value }));
  return {
    measurement: m,
    seriesKey: [m, ...t.map((x) => `${x.key}=${x.value}`)].join(','),
    tags: t,
    fields: Object.entries(fields).map(([key, value]) => ({ key, type, value }) as never),
    sec: 0,
    nsec: 0,
  };
}

test('registers series, postings and field types; detects conflicts', () => {
  const idx = new SeriesIndex({ maxTagValuesPerMeasurement: 0, maxMeasurementsPerDatabase: 0 });
  const delta: IndexDelta = { series: [], fields: [] };
  idx.register(pt('cpu', { host: 'a' }, { v: 1 }), delta);
  idx.register(pt('cpu', { host: 'b' }, { v: 1 }), delta);
  idx.register(pt('cpu', { host: 'a' }, { v: 2 }), delta);
  assert.equal(delta.series.length, 2);
  assert.equal(delta.fields.length, 1);
  const m = idx.measurement('cpu')!;
  assert.deepEqual(m.tags.get('host')?.get('a'), [0]);
  assert.deepEqual(m.seriesIds, [0, 1]);
  assert.ok(idx.check(pt('cpu', { host: 'c' }, { v: 1 }, FieldType.Integer)) instanceof FieldTypeConflictError);
  assert.equal(
    idx.check(pt('cpu', { host: 'c' }, { v: 1 }, FieldType.Integer))?.message,
    'field type conflict: input field "v" on measurement "cpu" is type integer, already exists as type float',
  );
  idx.dropSeries([0]);
  assert.deepEqual(m.tags.get('host')?.has('a'), false);
  assert.equal(idx.seriesId('cpu,host=a'), undefined);
  assert.equal(idx.register(pt('cpu', { host: 'a' }, { v: 2 }), delta), 2, 'ids are never reused');
});

test('cardinality limits', () => {
  const idx = new SeriesIndex({ maxTagValuesPerMeasurement: 2, maxMeasurementsPerDatabase: 2 });
  const d: IndexDelta = { series: [], fields: [] };
  idx.register(pt('m', { k: 'a' }, { v: 1 }), d);
  idx.register(pt('m', { k: 'b' }, { v: 1 }), d);
  const err = idx.check(pt('m', { k: 'c' }, { v: 1 }));
  assert.ok(err instanceof CardinalityLimitError);
  assert.equal(err.message, 'max-values-per-tag limit exceeded (2/2): measurement="m" tag="k" value="c"');
  assert.equal(idx.check(pt('m', { k: 'a' }, { v: 1 })), undefined);
  idx.register(pt('n', {}, { v: 1 }), d);
  assert.ok(idx.check(pt('o', {}, { v: 1 })) instanceof CardinalityLimitError);
});

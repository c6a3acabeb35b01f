import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { FieldType } from '../../engine/index.js';
import { goSort } from './gosort.js';
import { reduce } from './test-support.js';
import type { Scalar } from './value.js';

interface Fixture {
  series: Record<string, { type: 'float' | 'integer'; values: number[] }>;
  cases: { series: string; fn: 'percentile' | 'mode'; arg?: number; rows: [string, Scalar][] }[];
}
const fx = JSON.parse(readFileSync(new URL('../../../fixtures/ql-exec/gosort-oracle.json', import.meta.url), 'utf8')) as Fixture;
const S = 1_000_000_000n;

describe('goSort: Go 1.19 sort.Sort', () => {
  it('sorts', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 400 }), (xs) => {
        const a = [...xs];
        goSort(a, (x, y) => x < y);
        assert.deepEqual(a, [...xs].sort((x, y) => x - y));
      }),
      { numRuns: 200 },
    );
  });
  it('is stable up to 12 elements (insertion sort), like Go', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 12 }), (xs) => {
        const idx = xs.map((_, i) => i);
        goSort(idx, (x, y) => (xs[x] as number) < (xs[y] as number));
        const stable = xs.map((_, i) => i).sort((x, y) => (xs[x] as number) - (xs[y] as number) || x - y);
        assert.deepEqual(idx, stable);
      }),
    );
  });
});

describe('percentile/mode pick the same point as influxd 1.6.7 (unstable sort, ties)', () => {
  for (const c of fx.cases) {
    const s = fx.series[c.series];
    if (s === undefined) continue;
    it(`${c.fn}(${c.series}${c.arg !== undefined ? `, ${c.arg}` : ''}) n=${s.values.length}`, () => {
      const type = s.type === 'float' ? FieldType.Float : FieldType.Integer;
      const pts = s.values.map((v, i) => [BigInt(i + 1) * S, v] as const);
      const got = reduce(c.fn, type, pts, c.fn === 'percentile' ? { percentile: c.arg ?? 0 } : {});
      if (c.fn === 'percentile') assert.deepEqual(got.map((r) => [String(r.time), r.value]), c.rows);
      else assert.deepEqual(got.map((r) => r.value), c.rows.map((r) => r[1]));
    });
  }
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr } from '../ast/nodes.js';
import { parseExpr } from '../parser/query.js';
import { evaluate } from '../exec/eval.js';
import { MAX_NS, MIN_NS, splitTimeRange } from './time-range.js';

const NOW = 1_710_000_000_000_000_000n;
const H = 3_600_000_000_000n;
const T0 = 1_709_942_400_000_000_000n; // 2024-03-09T00:00:00Z

/** Evaluate the condition left for rows at time t, with the given field values (as a row filter: a condition). */
function rowPasses(rest: Expr | null, t: bigint, fields: Record<string, number>): boolean {
  if (!rest) return true;
  return evaluate(rest, { time: t, lookup: (name: string) => fields[name] ?? null, condition: true }, { isInteger: () => false }) === true;
}

describe('splitTimeRange', () => {
  it('intersects top-level AND bounds and drops them from the row condition', () => {
    const s = splitTimeRange(parseExpr("time >= '2024-03-09T01:00:00Z' AND time < '2024-03-09T02:00:00Z' AND v > 1"), NOW, false);
    assert.equal(s.min, T0 + H);
    assert.equal(s.max, T0 + 2n * H - 1n);
    assert.ok(rowPasses(s.rest, 0n, { v: 2 }));
    assert.ok(!rowPasses(s.rest, 0n, { v: 1 }));
  });

  it('leaves a side unbounded when one OR branch does not bound it, and rows still check the time', () => {
    const s = splitTimeRange(parseExpr("(time >= '2024-03-09T06:25:00Z' AND v > 1.5) OR code = 500"), NOW, false);
    assert.equal(s.min, MIN_NS);
    assert.equal(s.max, MAX_NS);
    const at = T0 + 6n * H + 25n * 60_000_000_000n;
    assert.ok(rowPasses(s.rest, at, { v: 2, code: 200 }), 'the left branch at its lower bound');
    assert.ok(!rowPasses(s.rest, at - 1n, { v: 2, code: 200 }), 'the left branch just before its bound');
    assert.ok(rowPasses(s.rest, at - H, { v: 0, code: 500 }), 'the right branch anywhere');
  });

  it('bounds by the envelope when every branch bounds a side, resolving now() and integers for rows', () => {
    const s = splitTimeRange(parseExpr('(time >= now() - 1h AND v > 1) OR (time >= 1710000000000000000 - 2h AND v < 0)'), NOW, false);
    assert.equal(s.min, NOW - 2n * H);
    assert.ok(rowPasses(s.rest, NOW - H, { v: 2 }));
    assert.ok(!rowPasses(s.rest, NOW - H - 1n, { v: 2 }));
    assert.ok(rowPasses(s.rest, NOW - H - 1n, { v: -1 }));
    assert.ok(!rowPasses(s.rest, NOW - 2n * H - 1n, { v: -1 }));
  });
});

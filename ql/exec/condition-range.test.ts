/**
 * rangeCheck never rules out a batch in which some value passes the condition (the reader would
 * drop rows), on random conditions over one field: comparisons with literals on either side,
 * AND/OR, other fields and tags mixed in, NaN and integer/float literals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { binary, integer, number, varRef, type BinaryOp, type Expr } from '../ast/nodes.js';
import { evaluate } from './eval.js';
import { rangeCheck } from './condition-range.js';
import { printExpr } from '../ast/print.js';

const types = { isInteger: () => false };
const v = varRef('v');
const literalArb: fc.Arbitrary<Expr> = fc.oneof(
  fc.integer({ min: -5, max: 105 }).map((x) => integer(BigInt(x))),
  fc.double({ min: -5, max: 105, noNaN: true }).map((x) => number(x)),
);
const leafArb: fc.Arbitrary<Expr> = fc.oneof(
  fc.tuple(fc.constantFrom<BinaryOp>('<', '<=', '>', '>=', '=', '!='), literalArb, fc.boolean()).map(([op, c, left]) => (left ? binary(op, c, v) : binary(op, v, c))),
  // Shapes the check does not understand: another field, a tag, arithmetic.
  literalArb.map((c) => binary('>', varRef('w'), c)),
  fc.constant(binary('=', varRef('host'), varRef('host'))),
  literalArb.map((c) => binary('>', binary('+', v, integer(1n)), c)),
);
const condArb: fc.Arbitrary<Expr> = fc.letrec((tie) => ({
  cond: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leafArb, fc.tuple(fc.constantFrom<BinaryOp>('AND', 'OR'), tie('cond') as fc.Arbitrary<Expr>, tie('cond') as fc.Arbitrary<Expr>).map(([op, l, r]) => binary(op, l, r))),
})).cond;

test('a batch ruled out by its min and max holds no value that passes', () => {
  fc.assert(
    fc.property(condArb, fc.array(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true })), { minLength: 1, maxLength: 30 }), (cond, values) => {
      const check = rangeCheck(cond, (e) => e.kind === 'VarRef' && e.name === 'v' && e.type === null, types);
      // The interpreter's answer for a row with v = x, w = w (host is a tag of value 'h').
      const passes = ([x, w]: [number, number]) => evaluate(cond, { time: 0n, lookup: (name) => (name === 'v' ? x : name === 'w' ? w : 'h') }, types) === true;
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      if (!check || check(lo, hi)) return;
      // w's value is unknown to the check: no choice of it may let a row through.
      for (const x of values) for (const w of [-1e9, 0, 50, 1e9]) if (passes([x, w])) assert.fail(`${printExpr(cond)} passes ${x} in [${lo}, ${hi}]`);
    }),
    { numRuns: 2000 },
  );
});

test('pinned: the bench condition, literals on the left, NaN bounds, shapes it leaves alone', () => {
  const isV = (e: Expr) => e.kind === 'VarRef' && e.name === 'v';
  const gt90 = rangeCheck(binary('>', v, number(90)), isV, types)!;
  assert.deepEqual([gt90(0, 90), gt90(0, 90.5), gt90(NaN, 10)], [false, true, true]);
  const lt3 = rangeCheck(binary('<', integer(3n), v), isV, types)!; // 3 < v
  assert.deepEqual([lt3(0, 3), lt3(0, 4)], [false, true]);
  const band = rangeCheck(binary('OR', binary('<', v, integer(5n)), binary('=', v, integer(50n))), isV, types)!;
  assert.deepEqual([band(10, 40), band(10, 50), band(4, 40)], [false, true, true]);
  assert.equal(rangeCheck(binary('OR', binary('>', v, integer(5n)), binary('>', varRef('w'), integer(1n))), isV, types), undefined);
  assert.equal(rangeCheck(binary('!=', v, integer(5n)), isV, types), undefined);
});

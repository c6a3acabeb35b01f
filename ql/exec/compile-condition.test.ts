import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BinaryOp, Expr } from '../ast/nodes.js';
import { compileCondition, type Resolve } from './compile-condition.js';
import { evaluate } from './eval.js';
import type { Scalar } from './value.js';

const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -5, max: 5 }),
  fc.constantFrom(Infinity, -Infinity, NaN),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.constantFrom('a', 'b', ''),
  fc.boolean(),
);

const leaf: fc.Arbitrary<Expr> = fc.oneof(
  fc.constantFrom<Expr>({ kind: 'VarRef', name: 'f0', type: null }, { kind: 'VarRef', name: 'f1', type: null }, { kind: 'VarRef', name: 'host', type: null }, { kind: 'VarRef', name: 'missing', type: null }),
  fc.integer({ min: -5, max: 5 }).map((n): Expr => ({ kind: 'Integer', value: BigInt(n) })),
  fc.double({ min: -5, max: 5, noNaN: true }).map((value): Expr => ({ kind: 'Number', value })),
  fc.constantFrom('a', 'b').map((value): Expr => ({ kind: 'String', value })),
  fc.boolean().map((value): Expr => ({ kind: 'Boolean', value })),
);

const comparison = fc
  .tuple(fc.constantFrom<BinaryOp>('=', '!=', '<', '<=', '>', '>=', '+'), leaf, leaf)
  .map(([op, lhs, rhs]): Expr => ({ kind: 'Binary', op, lhs, rhs }));

const condition: fc.Arbitrary<Expr> = fc.letrec((tie) => ({
  c: fc.oneof(
    { depthSize: 'small' },
    comparison,
    fc.tuple(fc.constantFrom<BinaryOp>('AND', 'OR'), tie('c') as fc.Arbitrary<Expr>, tie('c') as fc.Arbitrary<Expr>).map(([op, lhs, rhs]): Expr => ({ kind: 'Binary', op, lhs, rhs })),
  ),
})).c;

test('a compiled condition answers like evaluate(...) === true, or is not compiled', () => {
  const tags: Record<string, string> = { host: 'a' };
  const resolve: Resolve = (name) => (name === 'host' ? { value: tags.host! } : name === 'f0' ? { slot: 0 } : name === 'f1' ? { slot: 1 } : { value: null });
  const types = { isInteger: () => false };
  let compiled = 0;
  fc.assert(
    fc.property(condition, scalar, scalar, (e, a, b) => {
      const f = compileCondition(e, resolve, types);
      if (!f) return;
      compiled++;
      const scope = { time: 0n, lookup: (name: string) => (name === 'f0' ? a : name === 'f1' ? b : name === 'host' ? tags.host! : null) };
      // Throwing counts as an answer too (compare() cannot mix a fractional number with a bigint).
      const outcome = (run: () => boolean) => {
        try {
          return run();
        } catch (err) {
          return (err as Error).name;
        }
      };
      assert.equal(outcome(() => f([a, b])), outcome(() => evaluate(e, scope, types) === true));
    }),
    { numRuns: 2000 },
  );
  assert.ok(compiled > 500, `only ${compiled} conditions compiled`);
});

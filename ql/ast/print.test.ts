/**
 * Property test: for generated ASTs (expressions, SELECTs with every clause, other statements),
 * parse(print(ast)) deep-equals ast. The generators produce the canonical forms the parser yields
 * (no parentheses nodes, folded negative literals, lower-case call names).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseQuery } from '../parser/query.js';
import * as N from './nodes.js';
import type { BinaryOp, Expr, FillOption, Measurement, SelectStatement, Source } from './nodes.js';
import { printStatement } from './print-statement.js';
import type { Statement } from './statements.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

const name = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/),
  fc.constantFrom('select', 'name', 'time', 'key', 'field', 'not', 'NOT', 'fill', 'tz', 'value', 'Host'),
  fc.string({ maxLength: 6 }),
  fc.constantFrom('a b', 'a"b', "a'b", 'a\\b', 'a\nb', '東京', 'température', 'a.b', '1x', ''),
);
const nonEmptyName = name.filter((n) => n !== '');
const callName = fc.oneof(fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/), fc.constantFrom('distinct', 'now', 'time', 'count', 'not', 'select'));
const regex = fc.constantFrom('^(a|b)$', 'cpu.*', 'a/b', '\\d+', '[a-z]', '(?i)x', '', 'x\\/y', '.');
const dataType = fc.constantFrom<N.DataType | null>(null, 'float', 'integer', 'unsigned', 'string', 'boolean', 'field', 'tag');

const literal: fc.Arbitrary<Expr> = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map(N.integer),
  fc.bigInt({ min: INT64_MAX + 1n, max: (1n << 64n) - 1n }).map(N.unsigned),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(N.number),
  fc.string({ maxLength: 8 }).map(N.string),
  fc.boolean().map(N.boolean),
  fc.bigInt({ min: INT64_MIN + 1n, max: INT64_MAX }).map(N.duration),
);

const ARITH: readonly BinaryOp[] = ['+', '-', '*', '/', '%', '&', '|', '^'];
const ALL_OPS: readonly BinaryOp[] = [...ARITH, 'OR', 'AND', '=', '!=', '<', '<=', '>', '>='];

/** Expressions; `boolean` allows comparison/logical operators and regex matches (WHERE, not SELECT fields). */
function exprArb(boolean: boolean): fc.Arbitrary<Expr> {
  const { e } = fc.letrec<{ e: Expr; leaf: Expr }>((tie) => ({
    leaf: fc.oneof(
      literal,
      fc.tuple(name, dataType).map(([n, t]) => N.varRef(n, t)),
      fc.constantFrom<'field' | 'tag' | null>(null, 'field', 'tag').map(N.wildcard),
      name.map(N.distinct),
    ),
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('leaf'),
      fc.tuple(callName, fc.array(fc.oneof(tie('e'), regex.map(N.regex)), { maxLength: 3 })).map(([n, args]) => N.call(n, args)),
      fc.tuple(fc.constantFrom(...(boolean ? ALL_OPS : ARITH)), tie('e'), tie('e')).map(([op, l, r]) => N.binary(op, l, r)),
      fc.tuple(fc.constantFrom<'-' | 'NOT'>('-', 'NOT'), tie('e')).map(([op, x]) => N.unary(op, x)),
      ...(boolean ? [fc.tuple(fc.constantFrom<BinaryOp>('=~', '!~'), tie('e'), regex).map(([op, l, r]) => N.binary(op, l, N.regex(r)))] : []),
    ),
  }));
  return e;
}

const measurement: fc.Arbitrary<Measurement> = fc.oneof(
  fc.tuple(fc.constantFrom('', 'db', 'my db'), fc.constantFrom('', 'rp', 'autogen'), nonEmptyName)
    .map(([database, retentionPolicy, n]) => N.measurement({ database: retentionPolicy === '' && database !== '' ? database : database, retentionPolicy, name: n })),
  fc.tuple(fc.constantFrom('', 'db'), fc.constantFrom('', 'rp'), regex).map(([database, retentionPolicy, r]) => N.measurement({ database, retentionPolicy, regex: N.regex(r) })),
);

const fill: fc.Arbitrary<FillOption> = fc.oneof(
  fc.constantFrom<FillOption>({ mode: 'null' }, { mode: 'none' }, { mode: 'previous' }, { mode: 'linear' }),
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map((value): FillOption => ({ mode: 'number', value })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value): FillOption => ({ mode: 'number', value })),
);

function selectArb(depth: number): fc.Arbitrary<SelectStatement> {
  const source: fc.Arbitrary<Source> = depth > 0 ? fc.oneof(measurement, selectArb(depth - 1).map(N.subQuery)) : measurement;
  const field = fc.oneof(
    fc.tuple(exprArb(false), fc.option(name, { nil: null })).map(([e, alias]) => N.field(e, alias)),
    regex.map((r) => N.field(N.regex(r))),
  );
  const dimension = fc.oneof(
    fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.option(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), { nil: undefined }))
      .map(([iv, off]) => N.call('time', off === undefined ? [N.duration(iv)] : [N.duration(iv), N.duration(off)])),
    name.map((n) => N.varRef(n)),
    fc.constant(N.wildcard()),
    regex.map(N.regex),
  );
  const target = fc.oneof(
    fc.constant(null),
    fc.tuple(nonEmptyName, fc.constantFrom('', 'rp'), fc.constantFrom('', 'db')).map(([n, rp, db]) => N.target(n, rp, db)),
    fc.tuple(fc.constantFrom('rp', 'r p'), fc.constantFrom('', 'db')).map(([rp, db]) => N.target(null, rp, db)),
  );
  const count = fc.nat({ max: 100000 });
  return fc
    .record({
      fields: fc.array(field, { minLength: 1, maxLength: 3 }),
      sources: fc.array(source, { minLength: 1, maxLength: 2 }),
      target,
      condition: fc.option(exprArb(true), { nil: null }),
      dimensions: fc.array(dimension, { maxLength: 3 }),
      fill,
      sortFields: fc.oneof(fc.constant([]), fc.tuple(fc.constantFrom('', 'time'), fc.boolean()).map(([n, asc]) => [{ name: n, ascending: asc }])),
      limit: count, offset: count, slimit: count, soffset: count,
      location: fc.constantFrom(null, 'UTC', 'America/Los_Angeles', 'Asia/Kolkata'),
    })
    .map(({ fields, sources, ...rest }) => N.select(fields, sources, rest));
}

const other: fc.Arbitrary<Statement> = fc.oneof(
  fc.tuple(nonEmptyName, nonEmptyName, fc.bigInt({ min: 0n, max: 10n ** 17n }), fc.integer({ min: 1, max: 5 }), fc.boolean())
    .map(([n, db, d, rep, dflt]): Statement => ({ kind: 'CreateRetentionPolicy', name: n, database: db, duration: d, replication: rep, shardDuration: 0n, isDefault: dflt })),
  fc.tuple(fc.constantFrom<'READ' | 'WRITE' | 'ALL'>('READ', 'WRITE', 'ALL'), nonEmptyName, nonEmptyName)
    .map(([privilege, db, user]): Statement => ({ kind: 'Grant', privilege, database: db, user })),
  fc.tuple(name, fc.string({ maxLength: 8 }), fc.boolean()).map(([n, password, admin]): Statement => ({ kind: 'CreateUser', name: n, password, admin })),
  fc.tuple(fc.array(measurement, { maxLength: 2 }), fc.option(exprArb(true), { nil: null }))
    .filter(([s, c]) => s.length > 0 || c !== null)
    .map(([sources, condition]): Statement => ({ kind: 'DropSeries', sources: sources.map((m) => ({ ...m, database: '', retentionPolicy: '' })), condition })),
  fc.tuple(fc.array(nonEmptyName, { minLength: 1, maxLength: 3 }), fc.option(exprArb(true), { nil: null }))
    .map(([keys, condition]): Statement => ({
      kind: 'ShowTagValues', database: '', sources: [], tagKey: { op: 'IN', keys }, condition, sortFields: [], limit: 0, offset: 0,
    })),
);

test('print → reparse is the identity on generated ASTs', () => {
  fc.assert(
    fc.property(fc.oneof(selectArb(1), other), (s) => {
      const text = printStatement(s);
      let again: Statement[];
      try {
        again = parseQuery(text);
      } catch (e) {
        throw new assert.AssertionError({ message: `${text}\n  ${String(e)}` });
      }
      assert.deepEqual(again, [s], text);
    }),
    { numRuns: 1500 },
  );
});

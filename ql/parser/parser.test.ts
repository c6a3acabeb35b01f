/**
 * Parser cases: every statement of fixtures/ql/statements.txt and of the conformance suite parses,
 * and print → reparse gives the same AST. A few ASTs are pinned in detail.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as N from '../ast/nodes.js';
import { printStatement } from '../ast/print-statement.js';
import type { Statement } from '../ast/statements.js';
import { ParseError } from '../errors.js';
import { parseParams } from './params.js';
import { parseExpr, parseQuery } from './query.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../fixtures/ql/${name}`, import.meta.url), 'utf8');

export const STATEMENTS: readonly string[] = fixture('statements.txt')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'));

/** Asserts parse(print(s)) deep-equals s; returns the printed text. */
export function assertRoundTrip(s: Statement, origin: string): string {
  const text = printStatement(s);
  let again: Statement[];
  try {
    again = parseQuery(text);
  } catch (e) {
    throw new assert.AssertionError({ message: `${origin}\n  printed: ${text}\n  reparse failed: ${String(e)}` });
  }
  assert.deepEqual(again, [s], `${origin}\n  printed: ${text}`);
  return text;
}

test('fixture statements parse and round-trip', () => {
  for (const q of STATEMENTS) {
    let stmts: Statement[];
    try {
      stmts = parseQuery(q);
    } catch (e) {
      throw new assert.AssertionError({ message: `${q}\n  ${String(e)}` });
    }
    assert.equal(stmts.length, 1, q);
    const [s] = stmts;
    if (s !== undefined) assertRoundTrip(s, q);
  }
});

interface ConformanceQuery { readonly id: string; readonly q: string; readonly params?: string; readonly error?: string }

test('conformance queries parse (or fail with the recorded 1.6.7 text)', () => {
  const cases: ConformanceQuery[] = JSON.parse(fixture('conformance-queries.json'));
  assert.ok(cases.length > 200);
  for (const c of cases) {
    const params = c.params === undefined ? undefined : parseParams(c.params);
    if (c.error !== undefined) {
      assert.throws(() => parseQuery(c.q, params), (e: unknown) => e instanceof ParseError && e.message === c.error, c.id);
      continue;
    }
    const stmts = parseQuery(c.q, params);
    assert.ok(stmts.length > 0, c.id);
    for (const s of stmts) assertRoundTrip(s, c.id);
  }
});

test('the dashboard query AST', () => {
  const [s] = parseQuery(
    'SELECT mean("value") FROM "cpu" WHERE ("host" =~ /^(a|b)$/) AND time >= now() - 6h and time <= now() GROUP BY time(1m), "host" fill(null)',
  );
  const time = N.varRef('time');
  assert.deepEqual(
    s,
    N.select([N.field(N.call('mean', [N.varRef('value')]))], [N.measurement({ name: 'cpu' })], {
      condition: N.binary(
        'AND',
        N.binary('AND', N.binary('=~', N.varRef('host'), N.regex('^(a|b)$')), N.binary('>=', time, N.binary('-', N.call('now'), N.duration(6n * 3_600_000_000_000n)))),
        N.binary('<=', time, N.call('now')),
      ),
      dimensions: [N.call('time', [N.duration(60_000_000_000n)]), N.varRef('host')],
    }),
  );
});

test('literals: int64/uint64 exactness, folding of signs, durations as bigint ns', () => {
  const [s] = parseQuery('SELECT 9223372036854775807, 9223372036854775808, -9223372036854775808, -5, -1.5, -(5), -a, 1000d FROM m');
  assert.ok(s?.kind === 'Select');
  assert.deepEqual(s.fields.map((f) => f.expr), [
    N.integer(9223372036854775807n), N.unsigned(9223372036854775808n), N.integer(-9223372036854775808n), N.integer(-5n),
    N.number(-1.5), N.unary('-', N.integer(5n)), N.unary('-', N.varRef('a')), N.duration(86_400_000_000_000_000n),
  ]);
});

test('precedence: one table, left associative, unary binds tightest', () => {
  const where = (q: string): N.Expr | null => {
    const [s] = parseQuery(`SELECT v FROM m WHERE ${q}`);
    return s?.kind === 'Select' ? s.condition : null;
  };
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => N.varRef(n));
  if (!a || !b || !c || !d) throw new assert.AssertionError({ message: 'setup' });
  assert.deepEqual(where('a OR b AND c'), N.binary('OR', a, N.binary('AND', b, c)));
  assert.deepEqual(where('a - b - c'), N.binary('-', N.binary('-', a, b), c));
  assert.deepEqual(where('a + b * c = d'), N.binary('=', N.binary('+', a, N.binary('*', b, c)), d));
  assert.deepEqual(where('NOT a = b'), N.binary('=', N.unary('NOT', a), b));
  assert.deepEqual(where('a = 1 AND b =~ /x/ OR c'), N.binary('OR', N.binary('AND', N.binary('=', a, N.integer(1n)), N.binary('=~', b, N.regex('x'))), c));
});

test('sources, targets and bound parameters', () => {
  const [s] = parseQuery('SELECT * INTO db.rp.:MEASUREMENT FROM db..m, rp./re/ WHERE h = $h AND v > $v AND f > $f LIMIT $n', {
    h: 'x', v: 5000000000, f: { float: 5 }, n: 3,
  });
  assert.ok(s?.kind === 'Select');
  assert.deepEqual(s.target, N.target(null, 'rp', 'db'));
  assert.deepEqual(s.sources, [N.measurement({ database: 'db', name: 'm' }), N.measurement({ retentionPolicy: 'rp', regex: N.regex('re') })]);
  assert.equal(s.limit, 3);
  assert.deepEqual(parseParams('{"a": 1.0, "b": 9223372036854775807, "c": "s", "d": true, "e": 1.5e-400}'), {
    a: { float: 1 }, b: { integer: 9223372036854775807n }, c: 's', d: true, e: { float: 0 },
  });
  // 1.x converts a number with a `.` by ParseFloat, any other by ParseInt (recorded from 1.6.7)
  assert.throws(() => parseParams('{"v": 1e2}'), /^QueryError: error parsing json value: strconv.ParseInt: parsing "1e2": invalid syntax$/);
  assert.throws(() => parseParams('{"v": -9223372036854775809}'), /: strconv.ParseInt: parsing "-9223372036854775809": value out of range$/);
  assert.throws(() => parseParams('{"v": 1.5e400}'), /: strconv.ParseFloat: parsing "1.5e400": value out of range$/);
  assert.deepEqual(parseParams('{"v": {"float": 1E1}}'), { v: { error: 'strconv.ParseInt: parsing "1E1": invalid syntax' } });
  assert.throws(() => parseParams('{bad'), /error parsing query parameters/);
  // Go's json.Decoder reads the first value only: what follows it is never looked at
  assert.deepEqual(parseParams('{"n": 2} trailing'), { n: { integer: 2n } });
  assert.deepEqual(parseParams('{"n": "a"}{'), { n: 'a' });
  assert.throws(() => parseParams('5 x'), /cannot unmarshal number into Go value/);
});

test('malformed params answer the texts of Go\'s JSON scanner (recorded from 1.6.7)', () => {
  const cases: [string, string][] = [
    ['{"n": 1,}', "invalid character '}' looking for beginning of object key string"],
    ['{n: 1}', "invalid character 'n' looking for beginning of object key string"],
    ['  \n', 'EOF'],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e+}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['{"a":"\\x"}', "invalid character 'x' in string escape code"],
    ['{"a":"x\ty"}', "invalid character '\\t' in string literal"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['{"a":-a}', "invalid character 'a' in numeric literal"],
    ['{"a":1', 'unexpected EOF'],
  ];
  for (const [doc, text] of cases) {
    assert.throws(() => parseParams(doc), (e: unknown) => e instanceof Error && e.message === `error parsing query parameters: ${text}`, doc);
  }
});

test('bound objects as 1.x binds them (durations, regexes, identifiers); a value it cannot bind fails only where used', () => {
  const p = parseParams('{"d": {"duration": "1h30m"}, "n": {"duration": 60000000000}, "r": {"regex": "^a|b$"}, "m": {"ident": "cpu"}, "x": null, "y": {"bool": true}}');
  const [s] = parseQuery('SELECT mean(v) FROM $m WHERE host =~ $r AND time > now() - $n GROUP BY time($d)', p);
  assert.equal(printStatement(s!), 'SELECT mean(v) FROM cpu WHERE host =~ /^a|b$/ AND time > now() - 1m GROUP BY time(90m)');
  const fails = (q: string, message: string) => assert.throws(() => parseQuery(q, p), (e: unknown) => e instanceof ParseError && e.message === message);
  fails('SELECT v FROM m WHERE v > $x', 'error parsing query: missing parameter: unable to bind parameter with type <nil>');
  fails('SELECT v FROM m WHERE v > $y', 'error parsing query: missing parameter: unknown bind object type: bool');
  fails('SELECT v FROM m WHERE h =~ $d', 'error parsing query: found 1h30m, expected regex at line 1, char 28');
  // As 1.6.7 prints them where a token is described: a duration of ns by FormatDuration, a value it cannot bind bare.
  fails('SELECT v FROM m LIMIT $n', 'error parsing query: found 1m, expected integer at line 1, char 23');
  fails('SELECT v FROM m WHERE h =~ $y', 'error parsing query: found unknown bind object type: bool, expected regex at line 1, char 28');
  fails('SELECT v FROM m WHERE h =~ $nothing', 'error parsing query: found $nothing, expected regex at line 1, char 28');
  assert.equal(parseQuery('SELECT v FROM m', p).length, 1);
  assert.throws(() => parseParams('[1]'), /^QueryError: error parsing query parameters: json: cannot unmarshal array into Go value of type map\[string\]interface \{\}$/);
  assert.throws(() => parseParams('{"v": 1'), /^QueryError: error parsing query parameters: unexpected EOF$/);
  assert.deepEqual(parseParams('null'), {});
});

test('parseExpr parses a whole expression', () => {
  assert.deepEqual(parseExpr('a + 1 > b'), N.binary('>', N.binary('+', N.varRef('a'), N.integer(1n)), N.varRef('b')));
  assert.throws(() => parseExpr('a b'), /found b, expected EOF at line 1, char 3/);
});

test('a word ending in a double quote is the quoted name alone, as 1.x scans it (results recorded from 1.6.7)', () => {
  const print = (q: string, params = {}) => parseQuery(q, params).map((s) => printStatement(s)).join('; ');
  assert.equal(print('SELECT v"x" FROM m'), 'SELECT x FROM m');
  assert.equal(print('SELECT v FROM m"x"'), 'SELECT v FROM x');
  assert.equal(print(`SELECT v FROM m WHERE t"t" = 'a' GROUP BY g"t"`), "SELECT v FROM m WHERE t = 'a' GROUP BY t");
  assert.equal(print('SHOW TAG VALUES WITH KEY = t"t"'), 'SHOW TAG VALUES WITH KEY = t');
  assert.equal(print('SELECT v_1"" FROM m'), 'SELECT "" FROM m');
  assert.equal(print('SELECT v FROM m WHERE t = $x"t"', { t: 'a' }), "SELECT v FROM m WHERE t = 'a'");
  // A quoted part ending the word keeps 1.x's escapes and stops at the first unescaped quote.
  assert.equal(print('SELECT v FROM a"b\\"c"'), 'SELECT v FROM "b\\"c"');
});

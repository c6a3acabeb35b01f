/** Helpers around the AST: durations, quoting, walking, RE2 → RegExp. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../parser/query.js';
import { formatDuration, goDurationString, parseDuration } from './duration.js';
import { quoteIdent, quoteString } from './keywords.js';
import * as N from './nodes.js';
import { re2Error } from './re2.js';
import { compileRegex } from './regex.js';
import { rewriteExpr, someExpr, statementExprs, walkExpr } from './walk.js';

test('durations: every suffix, concatenation, int64 overflow, formatting', () => {
  const ns = (s: string): bigint => {
    const d = parseDuration(s);
    if (!d.ok) throw new assert.AssertionError({ message: d.error });
    return d.ns;
  };
  assert.equal(ns('1ns'), 1n);
  assert.equal(ns('1u'), 1000n);
  assert.equal(ns('1µ'), 1000n);
  assert.equal(ns('1ms'), 1_000_000n);
  assert.equal(ns('1s'), 1_000_000_000n);
  assert.equal(ns('1m'), 60_000_000_000n);
  assert.equal(ns('1h30m'), 5_400_000_000_000n);
  assert.equal(ns('1d'), 86_400_000_000_000n);
  assert.equal(ns('52w'), 52n * 604_800_000_000_000n);
  assert.equal(ns('-5m'), -300_000_000_000n);
  assert.deepEqual(parseDuration('5x'), { ok: false, error: 'invalid duration' });
  assert.deepEqual(parseDuration('1µs'), { ok: false, error: 'invalid duration' });
  assert.deepEqual(parseDuration('15251w'), { ok: false, error: 'overflowed duration 15251w: choose a smaller duration or INF' });
  assert.equal(formatDuration(5_400_000_000_000n), '90m');
  assert.equal(formatDuration(3_600_000_000_000n), '1h');
  assert.equal(formatDuration(604_800_000_000_000n), '1w');
  assert.equal(formatDuration(1500n), '1500ns');
  assert.equal(formatDuration(0n), '0s');
  assert.equal(goDurationString(168n * 3_600_000_000_000n), '168h0m0s');
  assert.equal(goDurationString(0n), '0s');
  assert.equal(goDurationString(1_500_000_000n), '1.5s');
});

test('quoting follows 1.x QuoteIdent / QuoteString', () => {
  assert.equal(quoteIdent('cpu'), 'cpu');
  assert.equal(quoteIdent('name'), '"name"');
  assert.equal(quoteIdent('hvac zone,east'), '"hvac zone,east"');
  assert.equal(quoteIdent('a"b\\c\nd'), '"a\\"b\\\\c\\nd"');
  assert.equal(quoteIdent(''), '""');
  assert.equal(quoteString("it's\n"), "'it\\'s\\n'");
});

test('walk, rewrite and statementExprs reach every expression', () => {
  const [s] = parseQuery("SELECT mean(a) + 1 FROM (SELECT b FROM m WHERE c = 'x') WHERE d =~ /e/ GROUP BY time(1m), f");
  if (s === undefined) throw new assert.AssertionError({ message: 'no statement' });
  const names: string[] = [];
  for (const e of statementExprs(s)) {
    walkExpr(e, (n) => {
      if (n.kind === 'VarRef') names.push(n.name);
    });
  }
  assert.deepEqual(names.sort(), ['a', 'b', 'c', 'd', 'f']);
  const e = N.binary('+', N.varRef('x'), N.integer(1n));
  assert.deepEqual(rewriteExpr(e, (n) => (n.kind === 'VarRef' ? N.varRef(n.name.toUpperCase()) : n)), N.binary('+', N.varRef('X'), N.integer(1n)));
  assert.equal(someExpr(e, (n) => n.kind === 'Integer'), true);
});

test('RE2 checks and the JS translation', () => {
  assert.equal(re2Error('^(a|b)$'), null);
  assert.equal(re2Error('(?P<x>a)\\d{2,3}[[:alpha:]]'), null);
  assert.equal(re2Error('[z-a]'), 'error parsing regexp: invalid character class range: `z-a`');
  assert.equal(re2Error('a{2,1}'), 'error parsing regexp: invalid repeat count: `{2,1}`');
  assert.equal(re2Error(')'), 'error parsing regexp: unexpected ): `)`');
  assert.equal(re2Error('(?<n>a)'), 'error parsing regexp: invalid or unsupported Perl syntax: `(?<`');
  assert.ok(compileRegex('(?i)^SeRvEr01$').test('server01'));
  assert.ok(compileRegex('(?P<h>srv)\\d+\\z').test('srv12'));
  assert.ok(compileRegex('^[[:digit:]]+$').test('123'));
  assert.ok(!compileRegex('^[[:digit:]]+$').test('12a'));
  assert.ok(compileRegex('a/b').test('xa/b'));
});

/**
 * Fuzz: 100k random and mutated inputs (seeded, reproducible). Every input either parses or throws
 * a ParseError — never another exception — and the parser's work stays linear in the input: the
 * tokens it scans are bounded by a constant times the input length (a deterministic stand-in for
 * "bounded time per input": no backtracking blow-up). Pathological shapes are checked explicitly.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ParseError } from '../errors.js';
import { tokensScanned } from './lexeme.js';
import { parseQuery } from './query.js';
import { mulberry32 } from '../../engine/index.js';

const seeds = readFileSync(new URL('../../../fixtures/ql/statements.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'));

const TOKENS = [
  'SELECT', 'FROM', 'WHERE', 'GROUP BY', 'ORDER BY', 'LIMIT', 'OFFSET', 'SLIMIT', 'SOFFSET', 'INTO', 'AS', 'AND', 'OR', 'NOT',
  'SHOW', 'TAG', 'KEYS', 'VALUES', 'WITH KEY', 'IN', 'CREATE', 'DROP', 'DATABASE', 'RETENTION POLICY', 'ON', 'DURATION',
  'REPLICATION', 'DEFAULT', 'CONTINUOUS QUERY', 'BEGIN', 'END', 'RESAMPLE', 'EVERY', 'FOR', 'MATERIALIZED VIEW', 'DELETE',
  'SERIES', 'MEASUREMENT', 'GRANT', 'REVOKE', 'ALL', 'PRIVILEGES', 'TO', 'KILL', 'QUERY', 'EXPLAIN', 'ANALYZE', 'DISTINCT',
  'fill(', 'tz(', 'time(', 'now()', 'mean(', 'count(', ':MEASUREMENT', '::field', '::tag', '*', '+', '-', '/', '%', '&', '|', '^',
  '=', '!=', '<>', '<', '<=', '>', '>=', '=~', '!~', '(', ')', ',', ';', '.', '..', ':', '"', "'", '\\', '$', '$x', '$$',
  '--', '/*', '*/', '\n', '\r', '\t', ' ', 'µ', '東京', '😀', '0', '1', '-1', '1.5', '.5', '5.', '10s', '1h30m', '5x', '15251w',
  '9223372036854775808', '18446744073709551616', "'str'", '"id"', '/re/', '/[/', '/(/', 'true', 'false', 'cpu', 'host', 'value',
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  const x = xs[Math.floor(r() * xs.length)];
  if (x === undefined) throw new RangeError('empty choice');
  return x;
}

function mutate(r: () => number, s: string): string {
  let out = s;
  const edits = 1 + Math.floor(r() * 4);
  for (let k = 0; k < edits; k++) {
    const at = Math.floor(r() * (out.length + 1));
    const to = Math.min(out.length, at + Math.floor(r() * 8));
    switch (Math.floor(r() * 5)) {
      case 0: out = out.slice(0, at) + out.slice(to); break;
      case 1: out = out.slice(0, at) + pick(r, TOKENS) + out.slice(at); break;
      case 2: out = out.slice(0, at) + String.fromCharCode(Math.floor(r() * 128)) + out.slice(to); break;
      case 3: out = out.slice(0, at) + out.slice(at, to) + out.slice(at); break;
      default: out = out.slice(0, at); break;
    }
  }
  return out;
}

function generate(r: () => number): string {
  const kind = r();
  if (kind < 0.5) return mutate(r, pick(r, seeds));
  if (kind < 0.75) {
    const n = Math.floor(r() * 24);
    let s = pick(r, ['SELECT ', 'SHOW ', 'CREATE ', 'DROP ', 'DELETE ', '', 'GRANT ', 'ALTER ']);
    for (let k = 0; k < n; k++) s += pick(r, TOKENS) + pick(r, [' ', '', ' ', '\n']);
    return s;
  }
  if (kind < 0.9) {
    const n = Math.floor(r() * 40);
    let s = '';
    for (let k = 0; k < n; k++) s += String.fromCodePoint(Math.floor(r() * (r() < 0.9 ? 128 : 0x2ffff)));
    return s;
  }
  return mutate(r, `${pick(r, seeds)}; ${pick(r, seeds)}`);
}

/** Parses `q`; fails the test on anything but success or a ParseError. Returns the tokens scanned. */
function check(q: string): number {
  const before = tokensScanned();
  try {
    parseQuery(q, { x: 1 });
  } catch (e) {
    if (!(e instanceof ParseError)) {
      throw new assert.AssertionError({ message: `non-typed error for ${JSON.stringify(q.slice(0, 200))}: ${String(e)}` });
    }
    assert.ok(e.message.startsWith('error parsing query: '));
  }
  return tokensScanned() - before;
}

const WORK_PER_CHAR = 8;

test('100k fuzzed inputs: typed errors only, linear work', () => {
  const r = mulberry32(20261121);
  let worst = 0;
  for (let k = 0; k < 100_000; k++) {
    const q = generate(r);
    const work = check(q);
    const ratio = work / (q.length + 4);
    if (ratio > worst) worst = ratio;
    assert.ok(ratio <= WORK_PER_CHAR, `work ${work} for ${q.length} chars: ${JSON.stringify(q)}`);
  }
});

test('pathological inputs stay typed and linear', () => {
  const big = [
    '('.repeat(100_000),
    'SELECT ' + '('.repeat(50_000) + 'a' + ')'.repeat(50_000) + ' FROM m',
    'SELECT ' + '-'.repeat(3) + 'a FROM m',
    'SELECT ' + 'a + '.repeat(50_000) + 'a FROM m',
    'SELECT a FROM m WHERE ' + 'NOT '.repeat(10_000) + 'b',
    'SELECT * FROM ' + '(SELECT * FROM '.repeat(5_000) + 'm' + ')'.repeat(5_000),
    '-- comment\n'.repeat(20_000) + 'SHOW DATABASES',
    '/* '.repeat(20_000),
    "SELECT a FROM m WHERE b = '" + 'x'.repeat(200_000),
    'SELECT a FROM m WHERE b =~ /' + '('.repeat(20_000) + '/',
    'SELECT a FROM m WHERE b =~ /' + 'a{2}'.repeat(20_000) + '/',
    ';'.repeat(100_000),
    'SHOW DATABASES;'.repeat(10_000),
    '"'.repeat(100_001),
    'a.'.repeat(50_000),
  ];
  for (const q of big) {
    const work = check(q);
    assert.ok(work <= WORK_PER_CHAR * (q.length + 4), `work ${work} for ${q.slice(0, 40)}... (${q.length} chars)`);
  }
});

test('huge numeric literals are rejected without quadratic work', () => {
  for (const q of [
    'SELECT ' + '9'.repeat(1_000_000) + ' FROM m',
    'SELECT a FROM m LIMIT ' + '9'.repeat(1_000_000),
    'SELECT a FROM m WHERE time > ' + '9'.repeat(1_000_000) + 's',
    'KILL QUERY ' + '9'.repeat(1_000_000),
    'SELECT ' + '9'.repeat(1_000_000) + '.5 FROM m',
  ]) {
    check(q);
  }
  assert.throws(() => parseQuery('SELECT ' + '9'.repeat(1_000) + ' FROM m'), /unable to parse integer at line 1, char 8/);
  assert.equal(parseQuery('SELECT a FROM m LIMIT 00000000000000000000000000000005')[0]?.kind, 'Select');
});

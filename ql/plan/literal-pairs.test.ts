import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExpr } from '../parser/query.js';
import { reduceLiteralPairs } from './literal-pairs.js';

const TWO = /cannot perform a binary expression on two literals/;

// influxd 1.6.7, `SELECT <expr> FROM m` (cases s-k306, s-k307; the full grid of 392 pairs agreed).
test('pairs influxql.Reduce leaves are refused, pairs it folds are not', () => {
  for (const text of ["'a' + 1", '1h + 1', 'true + 1', '2 * 1h', "'a' - 'b'", 'true + false', '1.5 % 2h', '1 & 1.5', "1 - '2024-01-01'", '9223372036854775808 & 1']) {
    assert.throws(() => reduceLiteralPairs(parseExpr(text)), TWO, text);
  }
  for (const text of ['1 + 1', '1 / 0', "'a' + 'b'", '1h * 2', '2 + 1h', 'true & false', "'2024-01-01' - 1h", "'2024-01-02' - '2024-01-01'", '1 % 2.5', '1 + 9223372036854775808']) {
    assert.doesNotThrow(() => reduceLiteralPairs(parseExpr(text)), text);
  }
});

test('a folded pair is folded again with its neighbour; a variable or call beside it is no literal', () => {
  assert.throws(() => reduceLiteralPairs(parseExpr("(1 + 2) + 'a'")), TWO);
  assert.throws(() => reduceLiteralPairs(parseExpr('(1h + 1h) + 1')), TWO, 'a duration plus an integer');
  assert.doesNotThrow(() => reduceLiteralPairs(parseExpr('(2 + 1h) + 1h')), 'an integer plus a duration is a time');
  assert.throws(() => reduceLiteralPairs(parseExpr("('a' + 'b') - 1")), TWO);
  assert.doesNotThrow(() => reduceLiteralPairs(parseExpr("('2024-01-01' + 'T00:00:00Z') - 1h")), 'a concatenation read as a time');
  assert.throws(() => reduceLiteralPairs(parseExpr("v + (1 + 'a')")), TWO);
  assert.doesNotThrow(() => reduceLiteralPairs(parseExpr('v + 1h + 1')), '(v + 1h) + 1 holds no pair');
  assert.throws(() => reduceLiteralPairs(parseExpr('1h + 1 + v')), TWO);
  assert.throws(() => reduceLiteralPairs(parseExpr("abs('a' + 1)")), TWO, 'inside a math call');
  assert.doesNotThrow(() => reduceLiteralPairs(parseExpr("max('a' + 1)")), "an aggregate's own check comes first");
});

test('-(x) is -1 * x', () => {
  assert.throws(() => reduceLiteralPairs(parseExpr('-(true)')), TWO);
  assert.throws(() => reduceLiteralPairs(parseExpr('-(1h) * 2')), TWO, '-1 * 1h is no fold');
  assert.doesNotThrow(() => reduceLiteralPairs(parseExpr('-1h * 2')), 'a negative duration is one literal');
  assert.doesNotThrow(() => reduceLiteralPairs(parseExpr('-(1) + 1')));
});

/** Which sums a time condition folds, against 1.6.7's answers to every pair of six operand kinds and four operators. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseExpr } from '../parser/query.js';
import { parseTimeString } from './time-literal.js';
import { timeSumNs, UNREDUCED } from './time-sum.js';

const OPERANDS = ['now()', "'2024-03-09T00:00:00Z'", '1h', '5', '1.5', "'x'"];
const OPERATORS = ['+', '-', '*', '/'];
/** The pairs 1.6.7 folds (recorded with `time > A op B`; every other pair is refused). */
const FOLDED = new Set([
    "now() + 1h",
    "now() + 5",
    "now() - now()",
    "now() - '2024-03-09T00:00:00Z'",
    "now() - 1h",
    "now() - 5",
    "'2024-03-09T00:00:00Z' + 1h",
    "'2024-03-09T00:00:00Z' + 5",
    "'2024-03-09T00:00:00Z' - now()",
    "'2024-03-09T00:00:00Z' - '2024-03-09T00:00:00Z'",
    "'2024-03-09T00:00:00Z' - 1h",
    "'2024-03-09T00:00:00Z' - 5",
    "1h + now()",
    "1h + '2024-03-09T00:00:00Z'",
    "1h + 1h",
    "1h - 1h",
    "1h * 5",
    "1h * 1.5",
    "1h / 5",
    "1h / 1.5",
    "5 + now()",
    "5 + '2024-03-09T00:00:00Z'",
    "5 + 1h",
    "5 + 5",
    "5 + 1.5",
    "5 - 1h",
    "5 - 5",
    "5 - 1.5",
    "5 * 5",
    "5 * 1.5",
    "5 / 5",
    "5 / 1.5",
    "1.5 + 5",
    "1.5 + 1.5",
    "1.5 - 5",
    "1.5 - 1.5",
    "1.5 * 5",
    "1.5 * 1.5",
    "1.5 / 5",
    "1.5 / 1.5",
]);
const STRING = 'invalid operation: time and *influxql.StringLiteral are not compatible';
const NOW = 1_709_942_400_000_000_000n;

const verdict = (text: string): string => {
  try {
    return String(timeSumNs(parseExpr(text), { nowNs: NOW, parse: (s) => parseTimeString(s) }));
  } catch (e) {
    return (e as Error).message;
  }
};

test('time sums fold exactly where 1.6.7 folds them', () => {
  for (const a of OPERANDS) {
    for (const op of OPERATORS) {
      for (const b of OPERANDS) {
        const text = `${a} ${op} ${b}`;
        const v = verdict(text);
        // two strings concatenate into a string literal, which no time comparison takes
        const refusal = op === '+' && a.startsWith("'") && b.startsWith("'") ? STRING : UNREDUCED;
        if (FOLDED.has(text)) assert.match(v, /^-?\d+$/, text);
        else assert.equal(v, refusal, text);
      }
    }
  }
});

test('folded values: durations, integers as nanoseconds, a float truncated beside a duration', () => {
  assert.equal(verdict("'2024-03-09T00:00:00Z' + 1h"), String(NOW + 3_600_000_000_000n));
  assert.equal(verdict('now() - 5'), String(NOW - 5n));
  assert.equal(verdict("now() - '2024-03-08T00:00:00Z'"), '86400000000000');
  assert.equal(verdict('1h * 1.5'), '3600000000000');
  assert.equal(verdict('5 + 1h'), '3600000000005');
  assert.equal(verdict('now() - 2 * 1h'), UNREDUCED);
  assert.equal(verdict("'2024-03-09' + 'T01:00:00Z'"), STRING);
});

/** 1.x's compile-time type errors of arithmetic with an aggregate or a math call beside a literal (texts recorded from 1.6.7). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldType } from '../../engine/index.js';
import { parseExpr } from '../parser/query.js';
import { reduceLiteralPairs } from './literal-pairs.js';
import { checkOperandTypes, type OperandSchema } from './operand-types.js';

const schema: OperandSchema = {
  fields: new Map([['usage_user', FieldType.Float], ['code', FieldType.Integer], ['ok', FieldType.Boolean], ['message', FieldType.String]]),
  tags: new Set(['level']),
};

const refusal = (text: string): string | undefined => {
  try {
    checkOperandTypes(parseExpr(text), schema);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};

test('an aggregate, a selector or a math call beside a string or boolean is a type error', () => {
  const cases: [string, string][] = [
    ['mean(usage_user) + true', 'mean(usage_user::float) + true: incompatible types: float and boolean'],
    ['true + mean(usage_user)', 'true + mean(usage_user::float): incompatible types: boolean and float'],
    ["mean(usage_user) + 'a'", "mean(usage_user::float) + 'a': incompatible types: float and string"],
    ['count(usage_user) + true', 'count(usage_user::float) + true: incompatible types: integer and boolean'],
    ['max(message) + true', 'max(message::string) + true: incompatible types: string and boolean'],
    ['first(ok) + true', 'first(ok::boolean) + true: incompatible types: boolean and boolean'],
    ['mean(nosuch) + true', 'mean(nosuch) + true: incompatible types: float and boolean'],
    ['derivative(mean(usage_user)) + true', 'derivative(mean(usage_user::float)) + true: incompatible types: float and boolean'],
    ['sqrt(code) + true', 'sqrt(code::integer) + true: incompatible types: integer and boolean'],
    ["distinct(level) + 'a'", "distinct(level::tag) + 'a': incompatible types: tag and string"],
    ["percentile(usage_user, 90.5) + 'x'", "percentile(usage_user::float, 90.500) + 'x': incompatible types: float and string"],
    ['count(code) + 18446744073709551615', 'count(code::integer) + 18446744073709551615: cannot use + with an integer and unsigned literal'],
  ];
  for (const [text, message] of cases) assert.equal(refusal(text), `type error: ${message}`, text);
});

test('numeric arithmetic with calls, and calls 1.x cannot type, pass', () => {
  for (const text of ['mean(usage_user) * 2', 'count(code) / 1.5', 'max(nosuch) + true', 'first(ok) & true', 'count(code) & 3', 'sqrt(max(usage_user)) + count(usage_user)']) {
    assert.equal(refusal(text), undefined, text);
  }
});

// influxd 1.6.7 (cases s-k400-s-k405): 1.x types every binary expression of the reduced field.
test('the reduced field is typed: folded pairs by their value, binary expressions by their sides', () => {
  const reducedRefusal = (text: string): string | undefined => {
    try {
      checkOperandTypes(reduceLiteralPairs(parseExpr(text)), schema);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };
  const cases: [string, string][] = [
    ['usage_user + (true | false)', 'usage_user::float + true: incompatible types: float and boolean'],
    ["usage_user + ('a' + 'b' + 'c')", "usage_user::float + 'abc': incompatible types: float and string"],
    ["message + ('a' + 'b')", "message::string + 'ab': incompatible types: string and string"],
    ['code & (1.5 * 2)', 'code::integer & 3.000: incompatible types: integer and float'],
    ['usage_user & (7 / 0)', 'usage_user::float & 0.000: incompatible types: float and float'],
    ['usage_user & (7 % 0)', 'usage_user::float & 0: incompatible types: float and integer'],
    ['code & (2.5 % 0)', 'code::integer & NaN: incompatible types: integer and float'],
    ['usage_user & (9223372036854775807 + 1)', 'usage_user::float & -9223372036854775808: incompatible types: float and integer'],
    ['usage_user & -(1 + 1)', 'usage_user::float & -2: incompatible types: float and integer'],
    ["usage_user + (1h + 1h) + 'x'", "usage_user::float + 2h + 'x': incompatible types: float and string"],
    ["usage_user + (2h * 1.5) + 'x'", "usage_user::float + 2h + 'x': incompatible types: float and string"],
    ["usage_user + ('2024-01-02' - '2024-01-01') + message", 'usage_user::float + 1d + message::string: incompatible types: float and string'],
    ['max(usage_user) + (true ^ true)', 'max(usage_user::float) + false: incompatible types: float and boolean'],
    ['abs(usage_user + (true | false))', 'usage_user::float + true: incompatible types: float and boolean'],
    ["code + code + message", 'code::integer + code::integer + message::string: incompatible types: integer and string'],
    ["usage_user + -code + 'x'", "usage_user::float + -1 * code::integer + 'x': incompatible types: float and string"],
    ['(usage_user + code) & 1', '(usage_user::float + code::integer) & 1: incompatible types: float and integer'],
    ['level + (1 + 1)', 'level::tag + 2: incompatible types: tag and integer'],
    ['-(usage_user + message)', 'usage_user::float + message::string: incompatible types: float and string'],
    ['1 & ok', '1 & ok::boolean: incompatible types: integer and boolean'],
  ];
  for (const [text, message] of cases) assert.equal(reducedRefusal(text), `type error: ${message}`, text);
  // unknown sides (durations, times) give the other side's type; `i / i` stays an integer there
  for (const text of ['usage_user + (1h + 1h)', "usage_user + ('2024-01-01' + 1h)", '(code / code) & 1', '(code % 2) & 1', 'ok & (true | false)', 'ok & 1', 'code + (10 / 4)']) {
    assert.equal(reducedRefusal(text), undefined, text);
  }
});

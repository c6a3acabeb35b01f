/** 1.x's compile-time type errors of arithmetic with an aggregate or a math call beside a literal (texts recorded from 1.6.7). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldType } from '../../engine/index.js';
import { parseExpr } from '../parser/query.js';
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

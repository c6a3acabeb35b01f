import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import { parseExpr } from '../parser/query.js';
import { columnType } from './column-types.js';
import type { SchemaInfo } from './projection.js';

const schema: SchemaInfo = {
  fields: new Map([
    ['f', FieldType.Float],
    ['i', FieldType.Integer],
    ['u', FieldType.Unsigned],
    ['s', FieldType.String],
    ['b', FieldType.Boolean],
  ]),
  tags: new Set(['host']),
};
const typeOf = (text: string): FieldType | undefined => columnType(parseExpr(text), schema);

describe('columnType (the types SELECT ... INTO writes)', () => {
  it('reads fields, tags and hints', () => {
    assert.equal(typeOf('i'), FieldType.Integer);
    assert.equal(typeOf('f'), FieldType.Float);
    assert.equal(typeOf('host'), FieldType.String);
    assert.equal(typeOf('i::float'), FieldType.Float);
    assert.equal(typeOf('nosuch'), undefined);
  });

  it('keeps the argument type for selectors and order-keeping transforms, integers for count and elapsed', () => {
    for (const fn of ['sum', 'max', 'min', 'first', 'last', 'mode', 'spread', 'difference', 'cumulative_sum', 'abs', 'floor']) {
      assert.equal(typeOf(`${fn}(i)`), FieldType.Integer, fn);
      assert.equal(typeOf(`${fn}(f)`), FieldType.Float, fn);
    }
    assert.equal(typeOf('percentile(i, 50)'), FieldType.Integer);
    assert.equal(typeOf('top(s, 2)'), FieldType.String);
    assert.equal(typeOf('count(f)'), FieldType.Integer);
    assert.equal(typeOf('count(distinct(s))'), FieldType.Integer);
    assert.equal(typeOf('elapsed(f, 1s)'), FieldType.Integer);
    for (const fn of ['mean', 'median', 'stddev', 'integral', 'derivative', 'moving_average', 'sqrt', 'ln']) assert.equal(typeOf(`${fn}(i)`), FieldType.Float, fn);
    assert.equal(typeOf('derivative(max(i))'), FieldType.Float);
    assert.equal(typeOf('difference(max(i))'), FieldType.Integer);
  });

  it('follows 1.x arithmetic: a float operand or a division makes a float', () => {
    assert.equal(typeOf('i * 2'), FieldType.Integer);
    assert.equal(typeOf('-i'), FieldType.Integer);
    assert.equal(typeOf('i + 1.5'), FieldType.Float);
    assert.equal(typeOf('i / 2'), FieldType.Float);
    assert.equal(typeOf('u + 1'), FieldType.Unsigned);
    assert.equal(typeOf('max(i) % 3'), FieldType.Integer);
    assert.equal(typeOf('i > 1'), FieldType.Boolean);
    assert.equal(typeOf('s + 1'), undefined);
  });
});

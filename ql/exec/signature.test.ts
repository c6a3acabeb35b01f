import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../../engine/index.js';
import { checkInputType, resultType } from './signature.js';
import { createReducer } from './reducers/index.js';
import { createTransform } from './transform.js';
import type { TransformName } from './transform.js';
import { UnsupportedTypeError } from './errors.js';

const F = FieldType.Float;
const I = FieldType.Integer;
const B = FieldType.Boolean;
const S = FieldType.String;

describe('function signatures', () => {
  it('result types follow 1.x', () => {
    assert.equal(resultType('sum', I), I);
    assert.equal(resultType('mean', I), F);
    assert.equal(resultType('count', S), I);
    assert.equal(resultType('count_distinct', F), I);
    assert.equal(resultType('spread', I), I);
    assert.equal(resultType('median', I), F);
    assert.equal(resultType('elapsed', S), I);
    assert.equal(resultType('difference', I), I);
    assert.equal(resultType('derivative', I), F);
    assert.equal(resultType('abs', I), I);
    assert.equal(resultType('abs', F), F);
    assert.equal(resultType('sqrt', I), F);
    assert.throws(() => resultType('nope', F), /undefined function nope\(\)/);
  });
  it('agree with the reducers and transforms themselves', () => {
    for (const fn of ['count', 'count_distinct', 'sum', 'mean', 'min', 'max', 'first', 'last', 'spread', 'stddev', 'median', 'mode', 'percentile', 'distinct', 'top', 'bottom', 'sample', 'integral']) {
      for (const t of [F, I, FieldType.Unsigned, B, S]) {
        let r;
        try {
          r = createReducer(fn, t);
        } catch (e) {
          assert.ok(e instanceof UnsupportedTypeError);
          assert.throws(() => checkInputType(fn, t), UnsupportedTypeError);
          continue;
        }
        checkInputType(fn, t);
        assert.equal(r.outputType, resultType(fn, t), `${fn} on ${t}`);
      }
    }
    for (const fn of ['derivative', 'non_negative_derivative', 'difference', 'non_negative_difference', 'moving_average', 'cumulative_sum', 'elapsed'] as TransformName[]) {
      for (const t of [F, I, FieldType.Unsigned, B, S]) {
        let tr;
        try {
          tr = createTransform(fn, t);
        } catch (e) {
          assert.ok(e instanceof UnsupportedTypeError);
          assert.throws(() => checkInputType(fn, t), (x: unknown) => x instanceof UnsupportedTypeError && x.message === (e as Error).message);
          continue;
        }
        checkInputType(fn, t);
        assert.equal(tr.outputType, resultType(fn, t), `${fn} on ${t}`);
      }
    }
  });
});

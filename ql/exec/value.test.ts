import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldType } from '../../engine/index.js';
import { addInt, canonInt, castFillValue, compareScalar, compareStrings, subInt, wrapInt64, wrapUint64 } from './value.js';

describe('value helpers', () => {
  it('canonical integers: number when safe, bigint beyond 2^53', () => {
    assert.equal(canonInt(5n), 5);
    assert.equal(canonInt(9007199254740993n), 9007199254740993n);
    assert.equal(wrapInt64(2n ** 63n), -(2n ** 63n));
    assert.equal(wrapUint64(-1n), 2n ** 64n - 1n);
  });
  it('Go int64/uint64 add and sub wrap around', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (a, b) => {
        assert.equal(addInt(canonInt(a), canonInt(b), false), canonInt(BigInt.asIntN(64, a + b)));
        assert.equal(subInt(canonInt(a), canonInt(b), false), canonInt(BigInt.asIntN(64, a - b)));
      }),
    );
    assert.equal(subInt(1, 2, true), 2n ** 64n - 1n);
  });
  it('strings compare in Go (UTF-8 byte) order', () => {
    assert.equal(compareStrings('a', 'b'), -1);
    assert.equal(compareStrings('ab', 'a'), 1);
    assert.equal(compareStrings('\u{1F600}', '\uFFFD'), 1); // astral > BMP in UTF-8, not in UTF-16
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (x, y) => {
        const bx = Buffer.from(x, 'utf8');
        const by = Buffer.from(y, 'utf8');
        assert.equal(Math.sign(compareStrings(x, y)), Math.sign(Buffer.compare(bx, by)));
      }),
    );
    assert.equal(compareScalar(false, true), -1);
    assert.equal(compareScalar(1, 9007199254740993n), -1);
  });
  it('fill values cast like 1.x castTo<Type>', () => {
    assert.equal(castFillValue(1.7, FieldType.Integer), 1);
    assert.equal(castFillValue(-1.7, FieldType.Integer), -1);
    assert.equal(castFillValue(2, FieldType.Float), 2);
    assert.equal(castFillValue(3n, FieldType.Float), 3);
    assert.equal(castFillValue(0, FieldType.String), '');
    assert.equal(castFillValue(0, FieldType.Boolean), false);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteWriter, ByteReader, zigzag, unzigzag, MAX_SAFE } from './varint.js';
import { assertCorrupt } from './helpers.test.js';

function halves(v: bigint): [number, number] {
  const u = BigInt.asUintN(64, v);
  return [Number(u & 0xffffffffn), Number(u >> 32n)];
}

test('uvarint round-trips safe naturals', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.maxSafeNat(), fc.nat(300))), (xs) => {
      const w = new ByteWriter(1);
      for (const x of xs) w.uvarint(x);
      const r = new ByteReader(w.finish());
      for (const x of xs) assert.equal(r.uvarint(), x);
      assert.equal(r.pos, w.len);
    }),
  );
});

test('uvarint64 and svarint64 round-trip the whole 64-bit range', () => {
  fc.assert(
    fc.property(fc.array(fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n)), (xs) => {
      const w = new ByteWriter(1);
      for (const x of xs) {
        w.uvarint64(...halves(x));
        w.svarint64(...halves(x));
      }
      const r = new ByteReader(w.finish());
      for (const x of xs) {
        r.uvarint64();
        assert.equal((BigInt(r.hi) << 32n) | BigInt(r.lo), BigInt.asUintN(64, x));
        r.svarint64();
        assert.equal((BigInt(r.hi) << 32n) | BigInt(r.lo), x);
      }
    }),
  );
});

test('svarint of safe integers and zigzag are exact', () => {
  fc.assert(
    fc.property(fc.maxSafeInteger(), (x) => {
      const w = new ByteWriter();
      w.svarint(x);
      assert.equal(new ByteReader(w.finish()).svarint(), x);
    }),
  );
  for (const x of [0, -1, 1, 2 ** 51, -(2 ** 51), 2 ** 52 - 1, -(2 ** 52) + 1]) assert.equal(unzigzag(zigzag(x)), x);
  assert.equal(zigzag(-1), 1);
  assert.equal(zigzag(1), 2);
});

test('edge values: int64 min/max, u64 max, 10-byte varints', () => {
  const w = new ByteWriter();
  w.uvarint64(0xffffffff, 0xffffffff);
  w.svarint64(0, 0x80000000);
  w.svarint64(0xffffffff, 0x7fffffff);
  w.uvarint(MAX_SAFE);
  w.bigInt64be(-(2n ** 63n));
  const bytes = w.finish();
  assert.equal(bytes[9], 1, 'u64 max is 10 bytes');
  const r = new ByteReader(bytes);
  r.uvarint64();
  assert.deepEqual([r.lo, r.hi], [0xffffffff, 0xffffffff]);
  r.svarint64();
  assert.deepEqual([r.lo, r.hi], [0, -0x80000000]);
  r.svarint64();
  assert.deepEqual([r.lo, r.hi], [0xffffffff, 0x7fffffff]);
  assert.equal(r.uvarint(), MAX_SAFE);
  assert.equal(r.bigInt64be(), -(2n ** 63n));
});

test('malformed varints are CorruptionError with the offset', () => {
  assertCorrupt(() => new ByteReader(new Uint8Array([0x80, 0x80])).uvarint());
  assertCorrupt(() => new ByteReader(new Uint8Array(11).fill(0x80)).uvarint64());
  assertCorrupt(() => new ByteReader(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])).uvarint());
  assertCorrupt(() => new ByteReader(new Uint8Array([1, 2, 3])).u32be());
  try {
    new ByteReader(new Uint8Array([5, 0x80]), 1).uvarint();
    assert.fail('expected a throw');
  } catch (e) {
    assert.equal((e as { offset: number }).offset, 1);
  }
});

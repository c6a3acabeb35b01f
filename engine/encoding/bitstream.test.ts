import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BitWriter, BitReader } from './bitstream.js';
import { ByteWriter } from './varint.js';
import { assertCorrupt } from './helpers.test.js';

const field = fc.integer({ min: 0, max: 32 }).chain((n) =>
  fc.record({ n: fc.constant(n), v: n === 0 ? fc.constant(0) : fc.integer({ min: 0, max: 2 ** n - 1 }) }),
);

test('bits read back as written, at every alignment', () => {
  fc.assert(
    fc.property(fc.nat(7), fc.array(field, { maxLength: 200 }), (pad, fields) => {
      const out = new ByteWriter(1);
      for (let i = 0; i < pad; i++) out.byte(0xaa);
      const w = new BitWriter(out);
      for (const { v, n } of fields) w.write(v, n);
      w.flush();
      const total = fields.reduce((s, f) => s + f.n, 0);
      assert.equal(out.len, pad + Math.ceil(total / 8));
      const r = new BitReader(out.buf, pad, out.len);
      for (const { v, n } of fields) assert.equal(r.read(n), v);
      assert.equal(r.byteEnd(), out.len);
    }),
  );
});

test('read32 returns the same bit pattern as a signed int', () => {
  const out = new ByteWriter();
  const w = new BitWriter(out);
  w.write(0xdeadbeef, 32);
  w.write(1, 1);
  w.flush();
  const r = new BitReader(out.buf, 0, out.len);
  assert.equal(r.read32(32), 0xdeadbeef | 0);
  assert.equal(r.read(1), 1);
});

test('reading past the end is CorruptionError', () => {
  const r = new BitReader(new Uint8Array([0xff, 0xff]), 0, 2);
  assert.equal(r.read(9), 0x1ff);
  assertCorrupt(() => r.read(8));
  assertCorrupt(() => new BitReader(new Uint8Array(0), 0, 0).read(1));
});

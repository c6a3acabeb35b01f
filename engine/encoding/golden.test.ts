// Golden bytes: this test breaks ⇒ the on-disk format changed.
//
// Each case encodes a small fixed input and compares the bytes with
// fixtures/format/encoding/<name>.hex (read relative to the repo root, where tests run).
// A format change must be deliberate: bump what needs bumping in the TSM layer, then
// regenerate with `node build/engine/encoding/golden.test.js --write-golden` and commit the
// .hex diff together with the code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ByteWriter } from './varint.js';
import { BitWriter } from './bitstream.js';
import { packNumbers } from './simple8b.js';
import { encodeTimestamps } from './timestamp.js';
import { encodeFloats } from './float.js';
import { encodeDecimals } from './decimal.js';
import { encodeFloatDeltas } from './float-delta.js';
import { encodeFloatColumn } from './float-block.js';
import { encodeIntegers } from './integer.js';
import { encodeUnsigned } from './unsigned.js';
import { encodeBooleans } from './boolean.js';
import { encodeStrings } from './string.js';
import { encodeBlock, decodeBlock } from './block.js';
import { FieldType } from '../point.js';
import { InvariantError } from '../errors.js';
import { seq, floatFromBits, bits } from './helpers.test.js';

const DIR = join(process.cwd(), 'fixtures', 'format', 'encoding');
const BASE = 1_700_000_000_000_000_000n;
const all = <T extends Float64Array | BigInt64Array | BigUint64Array | Uint8Array | string[]>(v: T): [T, number, number] => [v, 0, v.length];

function varints(): Uint8Array {
  const w = new ByteWriter();
  for (const v of [0, 1, 127, 128, 300, Number.MAX_SAFE_INTEGER]) w.uvarint(v);
  for (const v of [0, -1, 1, -64, 64]) w.svarint(v);
  w.svarint64(0, 0x80000000);
  w.svarint64(0xffffffff, 0x7fffffff);
  w.uvarint64(0xffffffff, 0xffffffff);
  w.bigInt64be(BASE);
  return w.finish();
}

function bitstream(): Uint8Array {
  const out = new ByteWriter();
  const w = new BitWriter(out);
  for (const [v, n] of [[1, 1], [0, 2], [5, 3], [0xabc, 12], [0xdeadbeef, 32], [0, 0], [1, 1]] as const) w.write(v, n);
  w.flush();
  return out.finish();
}

function simple8b(): Uint8Array {
  const w = new ByteWriter();
  const v = Float64Array.of(0, 0, 0, 0, 0, 1, 2, 3, 1000, 2 ** 40, 2 ** 52 + 1, ...new Array<number>(300).fill(0), 7);
  packNumbers(w, v, 0, v.length);
  return w.finish();
}

const irregular = Float64Array.of(0, 10e9, 20e9, 31e9, 29e9, 40e9, 50e9);
const floats = Float64Array.of(21.3, 21.3, 21.4, 21.35, floatFromBits(0x7ff8000000000001n), -0, Infinity, -Infinity, 1e-300, 50.123456789, 50.123456789);
const walk = Float64Array.of(50.123456789012, 51.0247, 49.99999999, 49.99999999, 48.31415926535, 47.2, 47.200000000000003);
const decimals = Float64Array.of(21.3, 21.35, 21.4, 21.4, -1.05, 0);
const temperatures = seq(120, (i) => (2150 + [0, 0, 1, 0, -1, 0][i % 6]! + Math.floor(i / 7)) / 100);
const humidity = Float64Array.of(40, 40.05, 40.1, 40.1, 40.05, 40.15);
const ints = Float64Array.of(58, 57, 59, 59, 62, 61, 0, 100);
const steady = Float64Array.of(10, 20, 30, 40);
const cpuWalk = seq(200, (i) => 50 + ((((i * 2654435761) >>> 0) % 7) % 3) - 1 + (i % 2));
const wideInts = BigInt64Array.of(-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n);
const wideDeltas = BigInt64Array.of(2n ** 60n, 2n ** 60n + 5n, 2n ** 60n + 3n);
const unsigned = BigUint64Array.of(2n ** 64n - 1n, 0n, 2n ** 63n, 12345n);
const bools = Uint8Array.of(1, 0, 1, 1, 0, 0, 0, 1, 1, 1);
const strings = ['', 'ok', 'héllo wörld', '日本語', '😀'];
const logLines = Array.from({ length: 20 }, (_, i) => `GET /api/v1/items/${i % 3} 200`);
const times = seq(6, (i) => i * 1e9);

/** name → encoded bytes. Inputs are fixed; only the encoders can change the output. */
export function goldenCases(): Record<string, Uint8Array> {
  return {
    varint: varints(),
    bitstream: bitstream(),
    simple8b: simple8b(),
    'timestamp-rle': encodeTimestamps(BASE, seq(5, (i) => i * 10e9), 0, 5),
    'timestamp-packed': encodeTimestamps(BASE, irregular, 0, irregular.length),
    'timestamp-raw': encodeTimestamps(0n, Float64Array.of(-(2 ** 53) + 1, 2 ** 53 - 1, 0), 0, 3),
    'timestamp-empty': encodeTimestamps(BASE, new Float64Array(0), 0, 0),
    float: encodeFloats(...all(floats)),
    'float-delta': encodeFloatDeltas(...all(walk)),
    'float-column-delta': encodeFloatColumn(...all(walk)),
    decimal: encodeDecimals(...all(decimals)) ?? new Uint8Array(0),
    'decimal-gcd': encodeDecimals(...all(humidity)) ?? new Uint8Array(0),
    'decimal-huffman': encodeDecimals(...all(temperatures)) ?? new Uint8Array(0),
    'float-column-decimal': encodeFloatColumn(...all(decimals)),
    'float-column-xor': encodeFloatColumn(...all(floats)),
    'integer-s8b': encodeIntegers(...all(ints)),
    'integer-rle': encodeIntegers(...all(steady)),
    'integer-huffman': encodeIntegers(...all(cpuWalk)),
    'integer-raw': encodeIntegers(...all(wideInts)),
    'integer-wide': encodeIntegers(...all(wideDeltas)),
    unsigned: encodeUnsigned(...all(unsigned)),
    boolean: encodeBooleans(...all(bools)),
    'boolean-const': encodeBooleans(...all(new Uint8Array(9).fill(1))),
    string: encodeStrings(...all(strings)),
    'string-lz4': encodeStrings(...all(logLines)),
    'block-float': encodeBlock(BASE, times, { type: FieldType.Float, values: decimals }, 0, 6),
    'block-integer': encodeBlock(BASE, times, { type: FieldType.Integer, values: ints }, 0, 6),
    'block-unsigned': encodeBlock(BASE, times.subarray(0, 4), { type: FieldType.Unsigned, values: unsigned }, 0, 4),
    'block-boolean': encodeBlock(BASE, times, { type: FieldType.Boolean, values: bools }, 0, 6),
    'block-string': encodeBlock(BASE, times.subarray(0, 5), { type: FieldType.String, values: strings }, 0, 5),
  };
}

/** Blocks read back from the committed fixtures: old files must stay readable. */
const readBack: Record<string, unknown[]> = {
  'block-float': bits(decimals),
  'block-integer': Array.from(ints.subarray(0, 6)),
  'block-unsigned': Array.from(unsigned),
  'block-boolean': Array.from(bools.subarray(0, 6)),
  'block-string': strings,
};

function fromHex(text: string): Uint8Array {
  return Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return (hex.match(/.{1,64}/g) ?? ['']).join('\n') + '\n';
}

if (process.argv.includes('--write-golden')) {
  mkdirSync(DIR, { recursive: true });
  for (const [name, bytes] of Object.entries(goldenCases())) writeFileSync(join(DIR, `${name}.hex`), toHex(bytes));
} else {
  for (const [name, bytes] of Object.entries(goldenCases())) {
    test(`golden bytes: ${name}`, () => {
      if (bytes.length === 0 && name.startsWith('decimal')) throw new InvariantError(`${name}: decimal no longer applies`);
      const expected = readFileSync(join(DIR, `${name}.hex`), 'utf8');
      assert.equal(
        toHex(bytes),
        expected,
        `fixtures/format/encoding/${name}.hex differs: the on-disk format changed. New bytes:\n${toHex(bytes)}`,
      );
      const values = readBack[name];
      if (values) {
        const { offsets, column } = decodeBlock(fromHex(expected), BASE);
        assert.deepEqual(Array.from(offsets), Array.from(times.subarray(0, values.length)));
        const got = column.values instanceof Float64Array && column.type === FieldType.Float ? bits(column.values) : Array.from(column.values as ArrayLike<unknown>);
        assert.deepEqual(got, values);
      }
    });
  }
}

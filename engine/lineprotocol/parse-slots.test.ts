/**
 * Column layout and shared parse slots: a batch finished into a slot and read back from it on
 * the other side equals the batch finished on its own; a slot is reused only once released;
 * bodies and columns that do not fit a slot go the transferring way with the same result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeColumns, parseToColumns } from './columns.js';
import { alignUp8, columnViews, layoutBytes } from './column-layout.js';
import { parseLineProtocol } from './parse.js';
import { ParsePool } from './parse-pool.js';
import { ParseSlots, SLOT_BYTES, SLOT_COUNT, slotted, unslotted } from './parse-slots.js';
import { corpusLines } from './fuzz-corpus.test.js';
import { SeriesReceiver, SeriesSender } from './series-wire.js';
import { mulberry32 } from '../random.js';

const OPTS = { precision: 'ns' as const, defaultSec: 1_700_000_000, defaultNsec: 1 };

test('column views are aligned, disjoint and fill exactly layoutBytes', () => {
  fc.assert(
    fc.property(fc.nat(5000), fc.nat(20000), fc.nat(300), fc.nat(64), (points, values, kinds, pad) => {
      const c = { points, values, kinds };
      const at = alignUp8(pad);
      const v = columnViews(new ArrayBuffer(at + layoutBytes(c)), at, c);
      const spans = Object.values(v)
        .map((a) => [a.byteOffset, a.byteOffset + a.byteLength, a.BYTES_PER_ELEMENT] as const)
        .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      let end = at;
      for (const [from, to, size] of spans) {
        assert.equal(from % size, 0, 'aligned');
        assert.equal(from, end, 'disjoint and contiguous');
        end = to;
      }
      assert.equal(end, at + layoutBytes(c));
    }),
  );
  assert.throws(() => columnViews(new ArrayBuffer(64), 4, { points: 1, values: 1, kinds: 0 }), RangeError);
  assert.throws(() => columnViews(new ArrayBuffer(16), 0, { points: 1, values: 1, kinds: 0 }), RangeError);
});

test('a batch finished into a shared buffer and read back equals the batch finished on its own (fuzz corpus)', () => {
  const rnd = mulberry32(20261124);
  const shared = new SharedArrayBuffer(SLOT_BYTES);
  const sender = new SeriesSender();
  const receiver = new SeriesReceiver();
  for (let round = 0; round < 20; round++) {
    const body = Buffer.from(corpusLines(rnd, 1 + Math.floor(rnd() * 800)).join('\n'));
    const at = alignUp8(body.byteLength);
    const own = parseToColumns(body, OPTS);
    const inSlot = parseToColumns(body, OPTS, { buffer: shared, at });
    assert.equal(inSlot.sec.buffer, shared);
    const sent = structuredClone(slotted(inSlot, sender.encode(inSlot.series), at));
    const back = unslotted(shared, sent, receiver.decode(sent.series)!);
    assert.deepEqual(decodeColumns(back), decodeColumns(own));
    assert.deepEqual([...back.kinds], [...own.kinds]);
    assert.deepEqual(decodeColumns(back), parseLineProtocol(body, OPTS));
  }
  // Columns that do not fit behind the body: the builder finishes into its own buffer.
  const body = Buffer.from('m v=1\n'.repeat(1000));
  const tight = new SharedArrayBuffer(body.byteLength + 64);
  const batch = parseToColumns(body, OPTS, { buffer: tight, at: alignUp8(body.byteLength) });
  assert.notEqual(batch.sec.buffer, tight);
  assert.deepEqual(decodeColumns(batch), parseLineProtocol(body, OPTS));
});

test('ParseSlots: a slot holds its body until given back, the last one freed is reused first, large bodies get none', () => {
  const slots = new ParseSlots(2, 1024);
  const a = slots.take(Buffer.from('first'));
  const b = slots.take(Buffer.from('second'));
  assert.notEqual(a, undefined);
  assert.notEqual(b, undefined);
  assert.equal(slots.take(Buffer.from('third')), undefined, 'every slot taken');
  assert.equal(Buffer.from(slots.buffers[a!]!, 0, 5).toString(), 'first');
  slots.give(b!);
  assert.equal(slots.take(Buffer.from('fourth')), b);
  assert.equal(Buffer.from(slots.buffers[b!]!, 0, 6).toString(), 'fourth');
  slots.give(a!);
  assert.equal(slots.take(Buffer.alloc(1025)), undefined, 'larger than a slot');
});

test('worker-parsed batches held in their slots stay intact while later bodies are parsed; released slots are reused', { timeout: 120_000 }, async () => {
  const pool = new ParsePool(1);
  try {
    const rnd = mulberry32(20261125);
    const body = (): Buffer => Buffer.from(corpusLines(rnd, 400).join('\n'));
    const held = [];
    for (let i = 0; i < SLOT_COUNT + 3; i++) {
      const b = body();
      const parsed = await pool.parse(b, OPTS);
      assert.ok(parsed);
      held.push({ b, parsed });
    }
    // The first SLOT_COUNT are in slots, the rest were transferred (no slot free).
    assert.equal(held.filter((h) => h.parsed.batch.sec.buffer instanceof SharedArrayBuffer).length, SLOT_COUNT);
    for (const h of held) assert.deepEqual(decodeColumns(h.parsed.batch), parseLineProtocol(h.b, OPTS));
    for (const h of held) h.parsed.release();
    for (let i = 0; i < 2 * SLOT_COUNT; i++) {
      const b = body();
      const parsed = await pool.parse(b, OPTS);
      assert.ok(parsed && parsed.batch.sec.buffer instanceof SharedArrayBuffer, 'released slots are used again');
      assert.deepEqual(decodeColumns(parsed.batch), parseLineProtocol(b, OPTS));
      parsed.release();
      parsed.release(); // twice is harmless
    }
    // A body larger than a slot, and one whose columns do not fit behind it, are transferred.
    for (const big of [Buffer.from('m,t=a v=1\n'.repeat(SLOT_BYTES / 10 + 1)), Buffer.from('m v=1\n'.repeat(Math.floor(SLOT_BYTES / 7)))]) {
      const parsed = await pool.parse(big, OPTS);
      assert.ok(parsed);
      assert.ok(!(parsed.batch.sec.buffer instanceof SharedArrayBuffer));
      assert.equal(parsed.batch.pointSeries.length, parseLineProtocol(big, OPTS).points.length);
      parsed.release();
    }
  } finally {
    await pool.close();
  }
});

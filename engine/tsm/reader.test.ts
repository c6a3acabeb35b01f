import { test } from 'node:test';
import { Buffer } from 'node:buffer';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { CorruptionError } from '../errors.js';
import { join } from 'node:path';
import fc from 'fast-check';
import { FieldType } from '../point.js';
import { BlockCache } from './block-cache.js';
import { BLOCK_CHECKSUM_SIZE, FOOTER_SIZE, HEADER_SIZE } from './format.js';
import { openPositionalFile } from './positional-file.js';
import type { FileOpener } from './positional-file.js';
import { TsmReader } from './reader.js';
import { compareKeys, payload, tempDir, writeTsm } from './test-support.js';
import type { KeySpec } from './test-support.js';

const keySpecArb = fc
  .uniqueArray(
    fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }),
      // A small alphabet gives shared prefixes and keys that are prefixes of others.
      fc.string({ unit: fc.constantFrom('a', 'b', ',', '#', '\u00e9', '\uff61', '\u{1f600}'), minLength: 1, maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 25 },
  )
  .chain((keys) =>
    fc.tuple(
      ...keys.map((key) =>
        fc.record({
          key: fc.constant(key),
          type: fc.constantFrom(FieldType.Float, FieldType.Integer, FieldType.Boolean, FieldType.String, FieldType.Unsigned),
          start: fc.bigInt(-(2n ** 62n), 2n ** 62n),
          blocks: fc.array(
            fc.record({
              gap: fc.bigInt(1n, 2n ** 50n),
              span: fc.bigInt(0n, 2n ** 50n),
              count: fc.integer({ min: 1, max: 1000 }),
              payload: fc.uint8Array({ minLength: 1, maxLength: 300 }),
            }),
            { minLength: 1, maxLength: 5 },
          ),
        }),
      ),
    ),
  )
  .map((raw): KeySpec[] =>
    raw
      .map((k) => {
        let t = k.start;
        const blocks = k.blocks.map((b) => {
          const minTime = t + b.gap;
          const maxTime = minTime + b.span;
          t = maxTime;
          return { minTime, maxTime, count: b.count, payload: b.payload };
        });
        return { key: k.key, type: k.type, blocks };
      })
      .sort((a, b) => compareKeys(a.key, b.key)),
  );

test('writer → reader round trip: keys, entries, payloads, time-range lookups (fast-check)', async (t) => {
  const dir = await tempDir(t, 'tsm-roundtrip');
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      keySpecArb,
      fc.constantFrom(undefined, 4096),
      fc.bigInt(-(2n ** 62n), 2n ** 62n),
      fc.bigInt(0n, 2n ** 62n),
      async (spec, bufferSize, qMin, qSpan) => {
        const path = join(dir, `${++n}.tsm`);
        const info = await writeTsm(path, spec, 3, bufferSize);
        const r = await TsmReader.open(path, { blockCache: new BlockCache({ maxBytes: 4096 }) });
        try {
          assert.equal(r.level, 3);
          assert.deepEqual([...r.keys()], spec.map((k) => k.key));
          assert.deepEqual(r.keyRange, { min: spec[0]?.key, max: spec.at(-1)?.key });
          const all = spec.flatMap((k) => k.blocks);
          const times = all.flatMap((b) => [b.minTime, b.maxTime]);
          assert.deepEqual(r.timeRange, { min: times.reduce((a, b) => (b < a ? b : a)), max: times.reduce((a, b) => (b > a ? b : a)) });
          assert.deepEqual(r.stats(), { keys: spec.length, blocks: all.length, bytes: info.size, values: all.reduce((s, b) => s + b.count, 0) });
          assert.deepEqual(r.info(), info);
          const qMax = qMin + qSpan;
          for (const k of spec) {
            assert.ok(r.hasKey(k.key));
            assert.equal(r.type(k.key), k.type);
            // By string (memoised after the first search) and by bytes (always searched) agree.
            assert.equal(r.index.findKey(k.key), r.index.findKey(Buffer.from(k.key, 'utf8')));
            const entries = r.entries(k.key);
            assert.deepEqual(
              entries.map((e) => [e.minTime, e.maxTime, e.count, e.size]),
              k.blocks.map((b) => [b.minTime, b.maxTime, b.count, b.payload.length]),
            );
            for (const [i, e] of entries.entries()) {
              assert.deepEqual(await r.readBlock(k.key, e), k.blocks[i]?.payload);
              assert.deepEqual(r.readBlockSync(k.key, e), k.blocks[i]?.payload);
            }
            const expected = entries.filter((e) => e.maxTime >= qMin && e.minTime <= qMax);
            assert.deepEqual(r.entriesInRange(k.key, qMin, qMax), expected);
            const first = entries[0];
            if (first) assert.deepEqual(r.entriesInRange(k.key, first.minTime, first.minTime), [first]);
          }
          assert.equal(r.hasKey(spec.map((k) => k.key).join('\u0000') + '\u0001'), false);
          assert.deepEqual(r.entries('\u{10FFFF}absent'), []);
        } finally {
          await r.close();
        }
      },
    ),
    { numRuns: 40 },
  );
});

test('a file with 100k keys opens and answers key and time lookups', async (t) => {
  const dir = await tempDir(t, 'tsm-100k');
  const path = join(dir, '000000001-000000001.tsm');
  const keyOf = (i: number) => `cpu,host=h${String(i).padStart(6, '0')}#!~#usage`;
  const N = 100_000;
  const spec: KeySpec[] = [];
  for (let i = 0; i < N; i++) {
    spec.push({ key: keyOf(i), type: FieldType.Float, blocks: [{ minTime: BigInt(i) * 10n, maxTime: BigInt(i) * 10n + 5n, count: 6, payload: payload(i, 8) }] });
  }
  await writeTsm(path, spec);
  const r = await TsmReader.open(path);
  try {
    assert.equal(r.stats().keys, N);
    assert.deepEqual(r.keyRange, { min: keyOf(0), max: keyOf(N - 1) });
    assert.deepEqual(r.timeRange, { min: 0n, max: BigInt(N - 1) * 10n + 5n });
    for (let i = 0; i < N; i += 997) {
      assert.ok(r.hasKey(keyOf(i)));
      const [e] = r.entriesInRange(keyOf(i), BigInt(i) * 10n + 5n, BigInt(i) * 10n + 100n);
      assert.ok(e);
      assert.deepEqual(await r.readBlock(keyOf(i), e), payload(i, 8));
      assert.deepEqual(r.entriesInRange(keyOf(i), BigInt(i) * 10n + 6n, BigInt(i) * 10n + 9n), []);
      assert.equal(r.hasKey(keyOf(i) + 'x'), false);
    }
    assert.equal(r.hasKey('cpu,host=h'), false);
    assert.equal(r.hasKey('zzz'), false);
    assert.equal(r.index.findKey(keyOf(54_321)), 54_321);
    // More keys than the key memo holds, twice: positions stay right when the memo starts over.
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < N; i++) if (r.index.findKey(keyOf(i)) !== i) assert.fail(`pass ${pass}: key ${i}`);
      assert.equal(r.index.findKey(keyOf(N)), -1);
    }
  } finally {
    await r.close();
  }
});

test('positional reads: open reads only header, footer and index; a block read reads only that block', async (t) => {
  const dir = await tempDir(t, 'tsm-positional');
  const path = join(dir, '000000001-000000001.tsm');
  const spec: KeySpec[] = ['a', 'b', 'c'].map((key, k) => ({
    key,
    type: FieldType.Integer,
    blocks: [0, 1, 2, 3].map((j) => ({ minTime: BigInt(j * 100), maxTime: BigInt(j * 100 + 50), count: 10, payload: payload(k * 10 + j, 2000) })),
  }));
  const info = await writeTsm(path, spec);
  const reads: { position: number; length: number }[] = [];
  const counting: FileOpener = async (p) => {
    const f = await openPositionalFile(p);
    return {
      size: f.size,
      read: (buf, position) => (reads.push({ position, length: buf.length }), f.read(buf, position)),
      readSync: (buf, position) => (reads.push({ position, length: buf.length }), f.readSync(buf, position)),
      close: () => f.close(),
    };
  };
  const r = await TsmReader.open(path, { openFile: counting });
  try {
    const opened = reads.splice(0);
    const indexSize = info.size - FOOTER_SIZE - opened[2]!.position;
    assert.deepEqual(opened, [
      { position: 0, length: HEADER_SIZE },
      { position: info.size - FOOTER_SIZE, length: FOOTER_SIZE },
      { position: info.size - FOOTER_SIZE - indexSize, length: indexSize },
    ]);
    assert.ok(HEADER_SIZE + FOOTER_SIZE + indexSize < info.size / 10, 'open must not touch the blocks');
    const e = r.entries('b')[2]!;
    await r.readBlock('b', e);
    r.readBlockSync('b', e);
    assert.deepEqual(reads, [
      { position: e.offset, length: BLOCK_CHECKSUM_SIZE + e.size },
      { position: e.offset, length: BLOCK_CHECKSUM_SIZE + e.size },
    ]);
  } finally {
    await r.close();
  }
  // Structural guarantee: the reader's I/O goes through PositionalFile only.
  const source = await readFile(join(process.cwd(), 'engine/tsm/reader.ts'), 'utf8');
  assert.doesNotMatch(source, /readFile|createReadStream|node:fs['/]/);
});

test('readBlocks: one read for a run of blocks, cached ones skipped, damage reported only at the damaged block', async (t) => {
  const dir = await tempDir(t, 'tsm-read-blocks');
  const path = join(dir, '000000001-000000001.tsm');
  const spec: KeySpec[] = ['a', 'b'].map((key, k) => ({
    key,
    type: FieldType.Integer,
    blocks: [0, 1, 2, 3].map((j) => ({ minTime: BigInt(j * 100), maxTime: BigInt(j * 100 + 50), count: 10, payload: payload(k * 10 + j, 300 + j) })),
  }));
  await writeTsm(path, spec);
  const reads: { position: number; length: number }[] = [];
  const counting: FileOpener = async (p) => {
    const f = await openPositionalFile(p);
    return { size: f.size, read: (buf, position) => (reads.push({ position, length: buf.length }), f.read(buf, position)), readSync: f.readSync.bind(f), close: () => f.close() };
  };
  const cache = new BlockCache();
  const r = await TsmReader.open(path, { openFile: counting, blockCache: cache });
  try {
    const entries = r.entries('b');
    await r.readBlock('b', entries[0]!); // cached now
    reads.splice(0);
    const run = await r.readBlocks('b', [...entries].reverse());
    const last = entries[3]!;
    assert.deepEqual(reads, [{ position: entries[1]!.offset, length: last.offset + BLOCK_CHECKSUM_SIZE + last.size - entries[1]!.offset }]);
    assert.deepEqual([0, 1, 2, 3].map((i) => run.payload(i)), [3, 2, 1, 0].map((j) => spec[1]!.blocks[j]!.payload));
  } finally {
    await r.close();
  }
  // Damage block 2 of 'a': blocks 0, 1 and 3 of the same span still read back; block 2 throws.
  const bytes = await readFile(path);
  const probe = await TsmReader.open(path);
  const bad = probe.entries('a')[2]!;
  await probe.close();
  bytes.writeUInt8(bytes.readUInt8(bad.offset + BLOCK_CHECKSUM_SIZE + 7) ^ 0x10, bad.offset + BLOCK_CHECKSUM_SIZE + 7);
  await writeFile(path, bytes);
  const damaged = await TsmReader.open(path);
  try {
    const run = await damaged.readBlocks('a', damaged.entries('a'));
    assert.deepEqual([0, 1, 3].map((i) => run.payload(i)), [0, 1, 3].map((j) => spec[0]!.blocks[j]!.payload));
    assert.throws(() => run.payload(2), (err) => err instanceof CorruptionError && err.offset === bad.offset);
  } finally {
    await damaged.close();
  }
});

test('readBlocks with follow: the first read of a key goes on into the next keys, which then need no read; a damaged block fails only when taken', async (t) => {
  const dir = await tempDir(t, 'tsm-read-follow');
  const path = join(dir, '000000001-000000001.tsm');
  // 40 keys of two 200-byte blocks each (a freshly flushed file: one small key per series-field).
  const keys = Array.from({ length: 40 }, (_, k) => `m,host=h${String(k).padStart(2, '0')}#v`);
  const spec: KeySpec[] = keys.map((key, k) => ({
    key,
    type: FieldType.Integer,
    blocks: [0, 1].map((j) => ({ minTime: BigInt(j * 100), maxTime: BigInt(j * 100 + 50), count: 10, payload: payload(k * 10 + j, 200) })),
  }));
  await writeTsm(path, spec);
  const bytes = await readFile(path);
  const probe = await TsmReader.open(path);
  const bad = probe.entries(keys[3]!)[1]!;
  await probe.close();
  bytes.writeUInt8(bytes.readUInt8(bad.offset + BLOCK_CHECKSUM_SIZE + 7) ^ 0x10, bad.offset + BLOCK_CHECKSUM_SIZE + 7);
  await writeFile(path, bytes);
  const reads: { position: number; length: number }[] = [];
  const counting: FileOpener = async (p) => {
    const f = await openPositionalFile(p);
    return { size: f.size, read: (buf, position) => (reads.push({ position, length: buf.length }), f.read(buf, position)), readSync: f.readSync.bind(f), close: () => f.close() };
  };
  const cache = new BlockCache();
  const damage: CorruptionError[] = [];
  const r = await TsmReader.open(path, { openFile: counting, blockCache: cache, onBlockDamage: (err) => damage.push(err) });
  try {
    reads.splice(0);
    const spanBytes = 20 * (BLOCK_CHECKSUM_SIZE + 200);
    await r.readBlocks(keys[0]!, r.entries(keys[0]!), { spanBytes });
    assert.deepEqual(reads, [{ position: r.entries(keys[0]!)[0]!.offset, length: spanBytes }]);
    // Nothing beyond key 0's blocks is verified or cached ahead of its own read.
    assert.equal(cache.stats().entries, 0);
    // Keys 1..9 come from the span, key 10 needs a read of its own.
    for (let k = 1; k < 10; k++) {
      const run = await r.readBlocks(keys[k]!, r.entries(keys[k]!), { spanBytes });
      for (const j of [0, 1]) {
        if (k === 3 && j === 1) assert.throws(() => run.payload(j), (err) => err instanceof CorruptionError && err.offset === bad.offset);
        else assert.deepEqual(run.payload(j), spec[k]!.blocks[j]!.payload);
      }
    }
    assert.equal(reads.length, 1);
    assert.equal(damage.length, 1, 'the damaged block is reported once');
    await r.readBlocks(keys[10]!, r.entries(keys[10]!), { spanBytes });
    assert.equal(reads.length, 2);
  } finally {
    await r.close();
  }
});

test('readBlock serves repeated reads from the shared block cache', async (t) => {
  const dir = await tempDir(t, 'tsm-cached');
  const path = join(dir, '000000001-000000001.tsm');
  await writeTsm(path, [{ key: 'k', type: FieldType.Float, blocks: [{ minTime: 1n, maxTime: 2n, count: 2, payload: payload(1, 100) }] }]);
  const cache = new BlockCache({ maxBytes: 1 << 20 });
  const r = await TsmReader.open(path, { blockCache: cache });
  const [e] = r.entries('k');
  assert.ok(e);
  const first = await r.readBlock('k', e);
  const second = await r.readBlock('k', e);
  assert.equal(second, first, 'the second read returns the cached payload');
  assert.deepEqual({ hits: cache.stats().hits, misses: cache.stats().misses, entries: cache.stats().entries }, { hits: 1, misses: 1, entries: 1 });
  await r.close();
  assert.equal(cache.stats().entries, 0, 'closing a reader drops its cached blocks');
  await assert.rejects(r.readBlock('k', e), { name: 'InvariantError' });
});

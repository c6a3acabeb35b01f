/**
 * The flush worker writes the same TSM bytes as the event loop, and an engine that flushes
 * through it stores and reads back exactly what one without it does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cache } from '../cache/cache.js';
import { FieldType } from '../point.js';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';
import { mulberry32 } from '../random.js';
import { FlushWorker } from './flush-worker-pool.js';
import { TsmReader } from '../tsm/reader.js';
import { writeSnapshotFile, type SnapshotColumn } from './snapshot-file.js';

/** A cache with every column kind, out-of-order runs and duplicates, several blocks per key. */
function sampleCache(): Cache {
  const rnd = mulberry32(7);
  const cache = new Cache();
  for (let s = 0; s < 5; s++) {
    const fields = cache.fields(`m,host=h${s}`);
    for (let i = 0; i < 2500; i++) {
      const t = i < 2000 ? i * 1000 : Math.floor(rnd() * 2_000_000);
      cache.entry(fields, 'f', FieldType.Float).append(t, rnd() * 100);
      cache.entry(fields, 'i', FieldType.Integer).append(t, i === 7 && s === 1 ? 2n ** 60n : Math.floor(rnd() * 1e6) - 5e5);
      cache.entry(fields, 'u', FieldType.Unsigned).append(t, Math.floor(rnd() * 1e9));
      cache.entry(fields, 'b', FieldType.Boolean).append(t, rnd() < 0.5);
      cache.entry(fields, 's', FieldType.String).append(t, `v${Math.floor(rnd() * 50)}`);
    }
  }
  // Longer than a slab carves (column-arena.ts): this column has buffers of its own, copied to the worker.
  const long = cache.entry(cache.fields('m,host=long'), 'f', FieldType.Float);
  for (let i = 0; i < 40_000; i++) long.append(i, rnd());
  return cache;
}

function columnsOf(cache: Cache): SnapshotColumn[] {
  return cache.sortedEntries().map(({ key, entry }) => ({ key, type: entry.type, ...entry.view() }));
}

test('a snapshot written by the flush worker is byte-identical to one written on the event loop', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-flush-worker-'));
  const worker = new FlushWorker();
  try {
    const cache = sampleCache();
    const baseNs = 1_700_000_000n * 1_000_000_000n;
    const viaWorker = await worker.write(join(dir, 'a.tsm'), baseNs, columnsOf(cache), 1000);
    const local = await writeSnapshotFile(join(dir, 'b.tsm'), baseNs, columnsOf(cache), 1000);
    assert.ok(viaWorker, 'the worker answered');
    const shared = columnsOf(cache).map((c) => c.offsets.buffer instanceof SharedArrayBuffer);
    assert.ok(shared.includes(true) && shared.includes(false), 'columns in shared slabs and columns of their own');
    assert.equal(viaWorker.values, local.values);
    assert.equal(viaWorker.info?.size, local.info?.size);
    assert.deepEqual(await readFile(join(dir, 'a.tsm')), await readFile(join(dir, 'b.tsm')));
    // The cache the columns came from is untouched (shared columns read in place, the others copied, not moved).
    assert.equal(cache.get('m,host=h0', 'f')!.view().offsets.length, columnsOf(cache)[0]!.offsets.length);
    // The index the worker decoded answers as the event loop's own parse of the file does.
    assert.ok(viaWorker.index, 'the worker decoded the index');
    const given = await TsmReader.open(join(dir, 'a.tsm'), { index: viaWorker.index });
    const parsed = await TsmReader.open(join(dir, 'a.tsm'));
    try {
      assert.deepEqual([...given.keys()], [...parsed.keys()]);
      for (const key of parsed.keys()) {
        assert.deepEqual(given.entries(key), parsed.entries(key));
        assert.deepEqual(await given.readBlocks(key, given.entries(key)).then((r) => r.payload(0)), await parsed.readBlock(key, parsed.entries(key)[0]!));
      }
      assert.deepEqual(given.info(), parsed.info());
    } finally {
      await given.close();
      await parsed.close();
    }
  } finally {
    await worker.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a closed flush worker answers undefined (the caller writes the file itself)', async () => {
  const worker = new FlushWorker();
  await worker.close();
  assert.equal(await worker.write('/nonexistent/x.tsm', 0n, [], 1000), undefined);
});

test('an I/O error in the worker rejects the write', async () => {
  const worker = new FlushWorker();
  try {
    await assert.rejects(worker.write('/nonexistent-dir/x.tsm', 0n, columnsOf(sampleCache()), 1000), /flush worker/);
  } finally {
    await worker.close();
  }
});

test('an engine flushing through the worker stores and reads back the same data, also after a restart', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-flush-worker-engine-'));
  const opts = engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, flushWorker: true });
  const body = Array.from({ length: 3000 }, (_, i) => `m,host=h${i % 3} v=${i / 4},n=${i}i,s="x${i % 7}",b=${i % 2 ? 't' : 'f'} ${1_700_000_000 + i}`).join('\n');
  const read = async (engine: Engine): Promise<unknown[]> => {
    const rows: unknown[] = [];
    for (const field of ['v', 'n', 's', 'b']) rows.push(await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: 'm,host=h1', field }));
    return rows;
  };
  try {
    let engine = await Engine.open(opts);
    await engine.catalog.createDatabase('db');
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(body) });
    const before = await read(engine);
    await engine.flush();
    assert.deepEqual(await read(engine), before);
    await engine.close();
    engine = await Engine.open(opts);
    try {
      assert.deepEqual(await read(engine), before);
      assert.equal((before[0] as unknown[]).length, 1000);
    } finally {
      await engine.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

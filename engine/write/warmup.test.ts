/**
 * The write path's JIT warm-up (Engine.warmUpWritePath): it runs the whole write path (parse
 * worker, WAL, cache, flush worker, a compaction) over its synthetic bodies in a scratch
 * directory, and leaves the engine exactly as it was: the same bytes in its WAL, meta and data
 * directories, the same catalog and readable data, no scratch directory left behind, and its
 * own workers still running (the scratch engine only borrows them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';

/** Every file under `dir` with a hash of its bytes (directories as entries of their own). */
async function tree(dir: string, root = dir, out: Record<string, string> = {}): Promise<Record<string, string>> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      out[relative(root, path) + '/'] = 'dir';
      await tree(path, root, out);
    } else {
      out[relative(root, path)] = createHash('sha256').update(await readFile(path)).digest('hex');
    }
  }
  return out;
}

/** Whether the engine's own worker threads still take requests (private fields, read for this test only). */
function workersUp(engine: Engine): { parse: number; flush: boolean } {
  const e = engine as unknown as { parsePool: { running: number }; flushWorker: { client: { available: boolean } } };
  return { parse: e.parsePool.running, flush: e.flushWorker.client.available };
}

test('the write path warm-up leaves no trace in the engine and keeps its workers', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-warmup-'));
  const dirs = join(root, 'engine');
  const scratchParent = join(root, 'scratch');
  await mkdir(scratchParent);
  const engine = await Engine.open(
    engineOptions({
      walDir: join(dirs, 'wal'),
      metaDir: join(dirs, 'meta'),
      dataDir: join(dirs, 'data'),
      flushIntervalSec: 0,
      compaction: { intervalMs: 0, coldAfterMs: 3_600_000, maxFileBytes: 1 << 28 },
      parseWorkers: 1,
      flushWorker: true,
    }),
  );
  try {
    await engine.catalog.createDatabase('db');
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('cpu,host=a v=1 10\ncpu,host=a v=2 20') });
    await engine.flush();
    // One point only in the WAL and the cache.
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('cpu,host=a v=3 30') });
    const read = () => readSeries(engine, { db: 'db', measurement: 'cpu', seriesKey: 'cpu,host=a', field: 'v' });
    const rowsBefore = await read();
    const filesBefore = await tree(dirs);
    assert.equal(workersUp(engine).parse, 1);

    // No deadline: on a loaded machine the 3 s one cuts rounds (18,000 lines seen in a full suite).
    const report = await engine.warmUpWritePath(scratchParent, Infinity);

    // It ran the whole path: every body stored, a compaction done.
    assert.equal(report.lines, 24_000);
    assert.ok(report.compactions >= 1, `compactions ${report.compactions}`);
    assert.deepEqual(await tree(dirs), filesBefore);
    assert.deepEqual(await readdir(scratchParent), []);
    assert.deepEqual(
      engine.catalog.databases().map((d) => d.name),
      ['db'],
    );
    assert.equal(engine.openedDatabase('jit_warmup'), undefined);
    assert.deepEqual(await read(), rowsBefore);
    assert.deepEqual(workersUp(engine), { parse: 1, flush: true });
    // And the engine writes as before.
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('cpu,host=a v=4 40') });
    assert.equal((await read()).length, rowsBefore.length + 1);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('the write path warm-up starts no round past its deadline', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-warmup-'));
  const engine = await Engine.open(
    engineOptions({
      walDir: join(root, 'wal'),
      metaDir: join(root, 'meta'),
      dataDir: join(root, 'data'),
      flushIntervalSec: 0,
      compaction: { intervalMs: 0, coldAfterMs: 3_600_000, maxFileBytes: 1 << 28 },
      parseWorkers: 1,
    }),
  );
  try {
    const report = await engine.warmUpWritePath(root, 0);
    assert.equal(report.bodies, 0);
    assert.equal(report.lines, 0);
    assert.deepEqual(engine.catalog.databases(), []);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

/**
 * Compactions whose merge runs in the flush worker (merge-job.ts): the same bytes as a merge on
 * the event loop, the same error types, abort on stop, and the event-loop merge as fallback
 * when the worker cannot answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CorruptionError, InvariantError, StorageIoError } from '../errors.js';
import { collectingLogger, silentLogger } from '../logger.js';
import { FlushWorker } from '../flush/flush-worker-pool.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { tempDir } from '../tsm/test-support.js';
import { QUARANTINE_DIR, tsmFileName } from '../tsm/format.js';
import { compact } from './compactor.js';
import { CompactionAbortedError } from './errors.js';
import { removeMergeLeftovers } from './merge-job.js';
import { mergeErrorFromWire, mergeErrorToWire } from './merge-error-wire.js';
import { SAMPLE_KEYS, closeAndRemove, fourFileShard, readAllKeys } from './test-support.js';

test('a merge in the flush worker writes the same file as one on the event loop, and swaps it in', async (t) => {
  const worker = new FlushWorker();
  const a = await fourFileShard(t, 'worker-merge-a');
  const b = await fourFileShard(t, 'worker-merge-b');
  const before = await readAllKeys(a.shard);

  const inWorker = await compact(a.shard, a.plan, { logger: silentLogger, worker });
  const local = await compact(b.shard, b.plan, { logger: silentLogger });

  assert.equal(inWorker.inWorker, true);
  assert.equal(local.inWorker, false);
  assert.deepEqual(inWorker.stats, local.stats);
  assert.equal(inWorker.bytesIn, local.bytesIn);
  assert.deepEqual(
    inWorker.outputs.map((o) => basename(o.path)),
    local.outputs.map((o) => basename(o.path)),
  );
  assert.deepEqual(await readFile(inWorker.outputs[0]!.path), await readFile(local.outputs[0]!.path));
  assert.deepEqual(await readAllKeys(a.shard), before);
  assert.deepEqual(await readdir(a.dir), ['000000004-000000002.tsm'], 'inputs gone, output live');
  await worker.close();
  await closeAndRemove(a.shard, a.dir);
  await closeAndRemove(b.shard, b.dir);
});

test('a damaged block in a worker merge is left out and named back; its input goes to quarantine', async (t) => {
  const worker = new FlushWorker();
  const logger = collectingLogger();
  const { shard, dir, plan } = await fourFileShard(t, 'worker-merge-corrupt', logger);
  const victim = shard.files!.files()[1]!;
  const entry = victim.entries(SAMPLE_KEYS[0]![0])[2]!;
  const fh = await open(victim.path, 'r+');
  await fh.write(Uint8Array.of(0xa5), 0, 1, entry.offset + 9);
  await fh.close();

  const result = await compact(shard, plan, { logger, worker });
  assert.ok(result.inWorker);
  assert.equal(result.stats.blocksDamaged, 1);
  assert.deepEqual(await readdir(join(dir, QUARANTINE_DIR)), [basename(victim.path)]);
  assert.ok(!(await readdir(dir)).some((n) => n.endsWith('.tmp')));
  assert.ok(logger.entries.some((e) => e.level === 'error' && /left out damaged TSM blocks/.test(e.msg)));
  await worker.close();
  await closeAndRemove(shard, dir);
});

test('stopping aborts a worker merge under way with CompactionAbortedError and removes its outputs', async (t) => {
  const worker = new FlushWorker();
  const { shard, dir, plan } = await fourFileShard(t, 'worker-merge-stop');
  const names = (await readdir(dir)).sort();
  let stop = false;
  // One-value blocks make the merge long enough to be caught writing its output.
  const running = compact(shard, plan, { logger: silentLogger, worker, maxPointsPerBlock: 1, shouldStop: () => stop });
  let settled = false;
  running.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled && !(await readdir(dir)).some((n) => n.endsWith('.tmp'))) await new Promise((r) => setImmediate(r));
  stop = true;
  await assert.rejects(running, CompactionAbortedError);
  assert.deepEqual((await readdir(dir)).sort(), names);
  await worker.close();
  await closeAndRemove(shard, dir);
});

test('a worker that cannot answer, tombstones, or a writer seam: the merge runs on the event loop', async (t) => {
  const closed = new FlushWorker();
  await closed.close();
  const a = await fourFileShard(t, 'worker-merge-closed');
  const before = await readAllKeys(a.shard);
  const r = await compact(a.shard, a.plan, { logger: silentLogger, worker: closed });
  assert.equal(r.inWorker, false);
  assert.deepEqual(await readAllKeys(a.shard), before);
  await closeAndRemove(a.shard, a.dir);

  // The hidden-row lookup is a closure over the event loop's tombstones: it cannot travel.
  const worker = new FlushWorker();
  const b = await fourFileShard(t, 'worker-merge-tombstoned');
  const filter: TombstoneFilter = { isClean: () => false, hidden: () => [[b.shard.baseNs, b.shard.baseNs + 100_000n]] };
  const purged = await compact(b.shard, b.plan, { logger: silentLogger, worker, filter });
  assert.equal(purged.inWorker, false);
  assert.ok(purged.stats.rowsPurged > 0);
  await worker.close();
  await closeAndRemove(b.shard, b.dir);
});

test('removeMergeLeftovers deletes the outputs and temp files a dead merge left, in name order up to the first gap', async (t) => {
  const dir = await tempDir(t, 'worker-merge-leftovers');
  const name = (sequence: number): string => join(dir, tsmFileName({ generation: 9, sequence }));
  await writeFile(name(2), 'published');
  await writeFile(name(3) + '.tmp', 'half written');
  await writeFile(name(5), 'not ours: after a gap');
  await writeFile(join(dir, tsmFileName({ generation: 8, sequence: 1 })), 'an input');
  await removeMergeLeftovers({ inputs: [], dir, first: { generation: 9, sequence: 2 }, level: 1, maxFileBytes: 1, baseNs: 0n });
  assert.deepEqual((await readdir(dir)).sort(), [basename(join(dir, tsmFileName({ generation: 8, sequence: 1 }))), basename(name(5))].sort());
});

test('merge errors keep their type and details across the thread (wire round trip)', () => {
  const cases: Error[] = [
    new CompactionAbortedError('/shard'),
    new CorruptionError('/shard/1-1.tsm', 4711, 'block checksum mismatch'),
    new StorageIoError('cannot write /shard/2-1.tsm.tmp'),
    new InvariantError('merge of a key found no decoded row at offset 5'),
  ];
  for (const err of cases) {
    const back = mergeErrorFromWire(structuredClone(mergeErrorToWire(err)), '/shard');
    assert.equal(back.constructor, err.constructor);
    assert.equal(back.message, err.message);
    if (err instanceof CorruptionError) assert.deepEqual([(back as CorruptionError).file, (back as CorruptionError).offset], [err.file, err.offset]);
  }
  const other = mergeErrorFromWire(mergeErrorToWire(new RangeError('offset out of range')), '/shard');
  assert.equal(other.message, 'compaction worker: offset out of range');
});

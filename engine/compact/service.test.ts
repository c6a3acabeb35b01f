import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { fieldKey } from '../cache/cache.js';
import { StorageIoError } from '../errors.js';
import { collectingLogger, silentLogger } from '../logger.js';
import { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';
import { NO_TOMBSTONES } from '../tombstone/filter.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { tempDir } from '../tsm/test-support.js';
import type { CleanupScope } from '../testing/temp-dir.js';
import { CompactionService } from './service.js';
import type { CompactedEvent, CompactionServiceOptions } from './service.js';
import { addFile, openShard, readThroughEngine } from './test-support.js';
import type { KeyRows, Row } from './test-support.js';

const KEY = fieldKey('cpu,host=a', 'v');

/** `n` rows from `from`, 10 µs apart, values tagged with the file so winners are visible. */
function rows(from: number, n: number, tag: number): KeyRows[] {
  const r: Row[] = Array.from({ length: n }, (_, i) => [(from + i) * 10_000, tag * 1000 + (i % 7)]);
  return [{ key: KEY, type: FieldType.Integer, rows: r }];
}

async function shardWith(scope: CleanupScope, prefix: string, files: number, perFile = 50): Promise<{ shard: Shard; dir: string }> {
  const dir = await tempDir(scope, prefix);
  const shard = await openShard(dir);
  for (let i = 0; i < files; i++) await addFile(shard, rows(i * (perFile / 2), perFile, i));
  return { shard, dir };
}

function service(shards: Shard[], extra: Partial<CompactionServiceOptions> = {}) {
  const clock = { now: 1_000 };
  const events: CompactedEvent[] = [];
  const svc = new CompactionService({
    shards: () => shards,
    filter: NO_TOMBSTONES,
    logger: silentLogger,
    coldAfterMs: 60_000,
    now: () => clock.now,
    onCompacted: (e) => void events.push(e),
    ...extra,
  });
  return { svc, clock, events };
}

const names = (shard: Shard) => shard.files!.files().map((r) => basename(r.path));

test('service: level compactions when files pile up, full compaction once cold; counters', async (t) => {
  const { shard, dir } = await shardWith(t, 'svc-levels', 5);
  const before = await readThroughEngine(shard, KEY, FieldType.Integer);
  const { svc, clock, events } = service([shard]);

  await svc.runOnce();
  assert.deepEqual(names(shard), ['000000004-000000002.tsm', '000000005-000000001.tsm']);
  assert.equal(svc.counters.compactions, 1);
  assert.deepEqual(events.map((e) => [e.kind, e.inputs.length]), [['level', 4]]);

  await svc.runOnce(); // still hot: nothing due
  assert.equal(svc.counters.compactions, 1);

  clock.now += 60_000;
  await svc.runOnce();
  assert.deepEqual(names(shard), ['000000005-000000002.tsm']);
  assert.equal(shard.files!.files()[0]!.level, 4);
  assert.deepEqual(await readThroughEngine(shard, KEY, FieldType.Integer), before);
  assert.equal(svc.counters.fullCompactions, 1);
  assert.ok(svc.counters.bytesIn > svc.counters.bytesOut && svc.counters.bytesOut > 0);
  assert.equal(svc.counters.errors, 0);

  await svc.runOnce(); // cold and fully compacted: no-op
  assert.equal(svc.counters.compactions, 2);
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});

test('service: tombstoned rows of a cold shard are purged; onCompacted waits for the inputs to leave the disk', async (t) => {
  const { shard, dir } = await shardWith(t, 'svc-tomb', 2);
  const filter: TombstoneFilter = {
    isClean: () => false,
    hidden: (_s, _k, _f, gen) => (gen < 3 ? [[shard.baseNs, shard.baseNs + 100_000n]] : []),
  };
  const { svc, clock, events } = service([shard], { filter, epoch: () => 42 });
  await svc.runOnce(); // hot: nothing due, but the service now knows when the shard was written
  assert.equal(svc.counters.compactions, 0);
  clock.now += 120_000;
  const pin = shard.files!.acquire();
  await svc.runOnce();
  assert.equal(svc.counters.fullCompactions, 1);
  assert.equal(svc.counters.rowsPurged, 11);
  assert.equal(events.length, 0, 'inputs still on disk (pinned by a query)');
  await pin.release();
  await svc.runOnce();
  assert.deepEqual(events.map((e) => [e.kind, e.startedAt, e.rowsPurged, e.outputs.length]), [['full', 42, 11, 1]]);
  const got = await readThroughEngine(shard, KEY, FieldType.Integer);
  assert.equal(got[0]![0], 110_000);
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});

test('service: a cold, compacted shard is rewritten only when a tombstone touches its file', async (t) => {
  const { shard, dir } = await shardWith(t, 'svc-probe', 2);
  let range: [bigint, bigint] | undefined;
  const filter: TombstoneFilter = { isClean: () => range === undefined, hidden: () => (range ? [range] : []) };
  const { svc, clock } = service([shard], { filter, probeTtlMs: 0 });
  await svc.runOnce();
  clock.now += 120_000;
  await svc.runOnce();
  assert.deepEqual(names(shard), ['000000002-000000002.tsm']);
  range = [shard.endNs, shard.endNs + 10n]; // after every row: nothing to purge
  await svc.runOnce();
  assert.equal(svc.counters.compactions, 1);
  range = [shard.baseNs + 30_000n, shard.baseNs + 50_000n];
  await svc.runOnce();
  assert.equal(svc.counters.compactions, 2);
  assert.equal(svc.counters.rowsPurged, 3);
  assert.deepEqual(names(shard), ['000000002-000000003.tsm']);
  await svc.runOnce(); // the range still meets the file's blocks, but no row is left in it
  assert.equal(svc.counters.compactions, 2);
  range = [shard.baseNs + 35_000n, shard.baseNs + 45_000n]; // between two rows
  await svc.runOnce();
  assert.equal(svc.counters.compactions, 2);
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});

test('service: a failed compaction is counted, logged, and retried only after retryAfterMs', async (t) => {
  const { shard, dir } = await shardWith(t, 'svc-fail', 4);
  const logger = collectingLogger();
  let attempts = 0;
  const { svc, clock } = service([shard], {
    logger,
    retryAfterMs: 10_000,
    createWriter: async () => {
      attempts++;
      throw new StorageIoError('injected');
    },
  });
  await svc.runOnce();
  await svc.runOnce();
  assert.equal(attempts, 1);
  assert.equal(svc.counters.errors, 1);
  assert.equal(names(shard).length, 4);
  clock.now += 10_000;
  await svc.runOnce();
  assert.equal(attempts, 2);
  assert.ok(logger.entries.some((e) => e.level === 'error'));
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});

test('service: stop() aborts a running compaction at its next yield and leaves no output', async (t) => {
  const { shard, dir } = await shardWith(t, 'svc-stop', 4, 20_000);
  const before = (await readdir(dir)).sort();
  const { svc } = service([shard], { sliceMs: 0, maxPointsPerBlock: 10 });
  const round = svc.runOnce();
  // Stop once the merge is under way (its temp output exists).
  while (!(await readdir(dir)).some((n) => n.endsWith('.tmp'))) await new Promise((r) => setImmediate(r));
  await svc.stop();
  await round;
  assert.equal(svc.counters.aborted, 1);
  assert.equal(svc.counters.compactions, 0);
  assert.deepEqual((await readdir(dir)).sort(), before);
  await svc.runOnce(); // usable again after stop()
  assert.equal(svc.counters.compactions, 1);
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});

test('service: the event loop keeps turning during a compaction; runOnce calls do not overlap', async (t) => {
  const { shard, dir } = await shardWith(t, 'svc-yield', 4, 20_000);
  const { svc } = service([shard], { sliceMs: 1, maxPointsPerBlock: 100 });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const a = svc.runOnce();
  const b = svc.runOnce();
  assert.equal(a, b);
  await a;
  clearInterval(timer);
  assert.equal(svc.counters.compactions, 1);
  assert.ok(ticks > 0, 'timers ran while the compaction was in progress');
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});

test('service: start() runs rounds on a timer until stop()', async (t) => {
  const { shard, dir } = await shardWith(t, 'svc-timer', 4);
  const { svc } = service([shard]);
  svc.start(5);
  for (let i = 0; i < 200 && svc.counters.compactions === 0; i++) await new Promise((r) => setTimeout(r, 5));
  await svc.stop();
  assert.equal(svc.counters.compactions, 1);
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});

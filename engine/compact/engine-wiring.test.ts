/**
 * End to end through the real Engine: writes and flushes make level-0 files, the service
 * compacts them (as the engine will once wired, see the report), reads before, during and
 * after — and after a restart — are identical. Exercises every field type, wide integers
 * (BigInt64 columns) and overwrites across flushes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../database.js';
import { Engine } from '../engine.js';
import { collectingLogger } from '../logger.js';
import { FlushWorker } from '../flush/flush-worker-pool.js';
import { openTestEngine } from '../testing/open-engine.js';
import type { Shard } from '../shard/shard.js';
import { readSeries } from '../testing/read-all.js';
import { NO_TOMBSTONES } from '../tombstone/filter.js';
import { CompactionService } from './service.js';
import { tempDir } from '../testing/temp-dir.js';

// The engine's own compaction service is off: this test drives a CompactionService itself.
const open = (root: string): Promise<Engine> => openTestEngine(root);

/** The engine's shards. The engine does not expose them yet; its wiring will pass this callback. */
function shardsOf(engine: Engine): Shard[] {
  const dbs = (engine as unknown as { databases: Map<string, Database> }).databases;
  return [...dbs.values()].flatMap((db) => [...db.shardSets.values()].flatMap((set) => set.shards));
}

const FIELDS = ['f', 'i', 'big', 'u', 's', 'b'];

async function readEverything(engine: Engine): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const host of ['a', 'b', 'c'])
    for (const field of FIELDS) out[`${host}.${field}`] = await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: `m,host=${host}`, field });
  return out;
}

for (const inWorker of [false, true]) {
test(`engine: flushed files compacted by the service${inWorker ? ' (merged in the flush worker)' : ''} read the same, before and after restart`, async (t) => {
  const worker = inWorker ? new FlushWorker() : undefined;
  const logger = collectingLogger();
  const root = await tempDir(t, 'strata-compact-engine-');
  let engine = await open(root);
  await engine.catalog.createDatabase('db');
  const t0 = 1_700_000_000n * 1_000_000_000n;
  for (let flush = 0; flush < 9; flush++) {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      // Each flush overlaps the previous one by half: later values must win.
      const t = t0 + BigInt((flush * 150 + i) * 1_000_000_000);
      const host = ['a', 'b', 'c'][i % 3]!;
      const v = flush * 1000 + i;
      lines.push(`m,host=${host} f=${v / 8},i=${v}i,big=${4611686018427387904n + BigInt(v)}i,u=${v}u,s="v${v}",b=${v % 2 === 0} ${t}`);
    }
    await engine.write({ db: 'db', precision: 'ns', body: Buffer.from(lines.join('\n')) });
    await engine.flush();
  }
  const before = (await readEverything(engine)) as Record<string, [bigint, unknown][]>;
  // 1,500 distinct times over three hosts; the newest flush holding a time wins it.
  assert.equal(before['a.i']!.length, 500);
  assert.deepEqual(before['a.i']![100], [t0 + 300_000_000_000n, 2000]); // flush 2 (i = 0) beats flush 1 (i = 150)
  assert.equal(shardsOf(engine).length, 1);
  assert.equal(shardsOf(engine)[0]!.files!.files().length, 9);

  const clock = { now: 0 };
  const svc = new CompactionService({ shards: () => shardsOf(engine), filter: NO_TOMBSTONES, logger, coldAfterMs: 1000, now: () => clock.now, ...(worker && { worker }) });
  await svc.runOnce();
  assert.equal(svc.counters.compactions, 2, 'two level-0 groups of four');
  assert.deepEqual(await readEverything(engine), before);
  clock.now += 1000;
  await svc.runOnce();
  assert.equal(svc.counters.fullCompactions, 1);
  assert.equal(shardsOf(engine)[0]!.files!.files().length, 1);
  assert.deepEqual(await readEverything(engine), before);

  const merged = logger.entries.filter((e) => e.msg === 'compacted TSM files');
  assert.equal(merged.length, 3);
  assert.ok(merged.every((e) => (e.obj as { worker?: boolean }).worker === (inWorker || undefined)), 'merged where asked');
  await svc.stop();
  await worker?.close();
  await engine.close();
  engine = await open(root);
  assert.deepEqual(await readEverything(engine), before);
  await engine.close();
});
}

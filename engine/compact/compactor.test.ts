import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fieldKey } from '../cache/cache.js';
import { CorruptionError, StorageIoError } from '../errors.js';
import { collectingLogger, silentLogger } from '../logger.js';
import { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { TsmFileSet } from '../tsm/file-set.js';
import { tempDir } from '../tsm/test-support.js';
import { QUARANTINE_DIR } from '../tsm/format.js';
import { TsmWriter } from '../tsm/writer.js';
import { compact } from './compactor.js';
import { mergeFiles } from './merge.js';
import type { OutputWriter, WriterFactory } from './outputs.js';
import { planCompactions } from './planner.js';
import type { CompactionPlan } from './planner.js';
import { SAMPLE_KEYS as KEYS, addFile, closeAndRemove as cleanup, fourFileShard, lastWriteWins, planFiles, readAllKeys as readAll, readRows } from './test-support.js';
import type { KeyRows } from './test-support.js';

test('compaction swaps inputs for outputs atomically; a snapshot of the old files still reads them', async (t) => {
  const { shard, dir, plan } = await fourFileShard(t, 'compact-swap');
  const files = shard.files!;
  const before = await readAll(shard);
  const inputs = files.files().map((r) => r.path);
  const pinned = files.acquire();

  const result = await compact(shard, plan, { logger: silentLogger });

  assert.deepEqual(
    files.files().map((r) => basename(r.path)),
    ['000000004-000000002.tsm'],
  );
  assert.equal(files.files()[0]!.level, 1);
  assert.equal(result.outputs.length, 1);
  assert.deepEqual(await readAll(shard), before, 'new readers see the same rows');
  // The pinned snapshot still reads every old file, and they still resolve to the same rows.
  assert.deepEqual(pinned.files.map((r) => r.path), inputs);
  const old = await Promise.all(pinned.files.map((r) => readRows(r, shard.baseNs)));
  assert.deepEqual(lastWriteWins(old), before);
  const names = await readdir(dir);
  assert.equal(names.filter((n) => n.endsWith('.tsm')).length, 5, 'inputs stay on disk while pinned');
  assert.equal(names.filter((n) => n.endsWith('.tsm.obsolete')).length, 4, 'marked, so that a crash now does not bring them back (tsm/obsolete-files.ts)');
  await pinned.release();
  assert.deepEqual(await readdir(dir), ['000000004-000000002.tsm'], 'inputs deleted with the last pin');
  await cleanup(shard, dir);
});

/** A TsmWriter that fails at the `failAt`-th writeBlock across all writers it made, or at finish of writer `failFinish`. */
function faultyWriters(opts: { failAt?: number; failFinish?: number }): WriterFactory {
  let blocks = 0;
  let writers = 0;
  return async (path, level): Promise<OutputWriter> => {
    const w = await TsmWriter.create(path, { level });
    const n = ++writers;
    return {
      path,
      get blockCount() {
        return w.blockCount;
      },
      writeBlock: async (...args) => {
        if (++blocks === opts.failAt) throw new StorageIoError('injected: disk full');
        return w.writeBlock(...args);
      },
      finish: async () => {
        if (n === opts.failFinish) {
          await w.abort();
          throw new StorageIoError('injected: finish failed');
        }
        return w.finish();
      },
      abort: () => w.abort(),
    };
  };
}

for (const [name, fault, maxFileBytes] of [
  ['a writer failing mid-way', { failAt: 7 }, undefined],
  ['the second output failing after the first was published', { failFinish: 2 }, 1],
] as const) {
  test(`${name} leaves the old files serving and no stray output`, async (t) => {
    const logger = collectingLogger();
    const { shard, dir, plan } = await fourFileShard(t, 'compact-fail', logger);
    const before = await readAll(shard);
    const names = (await readdir(dir)).sort();

    await assert.rejects(compact(shard, plan, { logger, createWriter: faultyWriters(fault), ...(maxFileBytes && { maxFileBytes }) }), StorageIoError);

    assert.deepEqual((await readdir(dir)).sort(), names, 'no output, no .tmp');
    assert.deepEqual(shard.files!.files().map((r) => basename(r.path)), names);
    assert.deepEqual(await readAll(shard), before);
    assert.ok(logger.entries.some((e) => e.level === 'error' && e.msg === 'compaction failed; inputs kept'));
    // The same plan succeeds afterwards.
    await compact(shard, plan, { logger, ...(maxFileBytes && { maxFileBytes }) });
    assert.deepEqual(await readAll(shard), before);
    await cleanup(shard, dir);
  });
}

test('a damaged block in an input is left out; the compaction finishes and keeps that input in quarantine', async (t) => {
  const logger = collectingLogger();
  const { shard, dir, plan } = await fourFileShard(t, 'compact-corrupt', logger);
  const victim = shard.files!.files()[2]!;
  const key = KEYS[2]![0];
  const entry = victim.entries(key)[1]!;
  const fh = await open(victim.path, 'r+');
  await fh.write(Uint8Array.of(0x5a), 0, 1, entry.offset + 10);
  await fh.close();
  // Before: CorruptionError, inputs kept, and the same failure at every later round.
  const result = await compact(shard, plan, { logger });
  assert.equal(result.stats.blocksDamaged, 1);
  assert.ok(!shard.files!.files().some((r) => r.path === victim.path));
  assert.deepEqual(await readdir(join(dir, QUARANTINE_DIR)), [basename(victim.path)]);
  assert.ok(logger.entries.some((e) => e.level === 'error' && /left out damaged TSM blocks/.test(e.msg)));
  await cleanup(shard, dir);
});

test('a compaction whose every row is hidden writes no output and removes the inputs', async (t) => {
  const { shard, dir, plan } = await fourFileShard(t, 'compact-empty');
  const filter: TombstoneFilter = { isClean: () => false, hidden: () => [[shard.baseNs, shard.endNs]] };
  const result = await compact(shard, plan, { logger: silentLogger, filter });
  assert.deepEqual(result.outputs, []);
  assert.equal(result.stats.valuesOut, 0);
  assert.equal(result.stats.rowsPurged, result.stats.valuesIn);
  assert.deepEqual(shard.files!.files(), []);
  assert.deepEqual(await readdir(dir), []);
  await cleanup(shard, dir);
});

test('reads and flushes during a compaction: every read is consistent, the newer flush keeps winning', async (t) => {
  const { shard, dir, plan } = await fourFileShard(t, 'compact-concurrent');
  const before = await readAll(shard);
  let done = false;
  const running = compact(shard, plan, { logger: silentLogger, sliceMs: 0, maxPointsPerBlock: 20 }).finally(() => {
    done = true;
  });
  let reads = 0;
  while (!done) {
    assert.deepEqual(await readAll(shard), before);
    reads++;
  }
  await running;
  assert.ok(reads > 0);
  // A flush racing the compaction sorts after the output and wins: full compaction of
  // 4-2 and 5-1 into 5-2 while 6-1 is flushed.
  const key = KEYS[0]![0];
  const extra: KeyRows[] = [{ key, type: FieldType.Float, rows: [[1, 0.5]] }];
  await addFile(shard, extra);
  const overwrite: KeyRows[] = [{ key, type: FieldType.Float, rows: [[0, -1], [1, -3], [3000, -2]] }];
  const next = compact(shard, planCompactions(planFiles(shard), { nowMs: 1, lastWriteMs: 0, coldAfterMs: 1 })[0]!, { logger: silentLogger, sliceMs: 0 });
  await addFile(shard, overwrite);
  await next;
  const expected = new Map(before);
  expected.set(key, lastWriteWins([new Map([[key, before.get(key)!]]), new Map([[key, extra[0]!.rows]]), new Map([[key, overwrite[0]!.rows]])]).get(key)!);
  assert.deepEqual(await readAll(shard), expected);
  assert.deepEqual(shard.files!.files().map((r) => basename(r.path)), ['000000005-000000002.tsm', '000000006-000000001.tsm']);
  await cleanup(shard, dir);
});

test('outputs split at maxFileBytes between keys, named with consecutive sequences', async (t) => {
  const { shard, dir, plan } = await fourFileShard(t, 'compact-split');
  const before = await readAll(shard);
  const result = await compact(shard, plan, { logger: silentLogger, maxFileBytes: 1 });
  assert.deepEqual(
    result.outputs.map((o) => [basename(o.path), o.keyCount]),
    KEYS.map((_, i) => [`000000004-00000000${i + 2}.tsm`, 1]),
  );
  assert.deepEqual(await readAll(shard), before);
  await cleanup(shard, dir);
});

test('crash leftovers: inputs and published outputs both present at open still read correctly, and are merged later', async (t) => {
  const { shard, dir, plan } = await fourFileShard(t, 'compact-crash');
  const before = await readAll(shard);
  // A tombstone over part of one key, hiding rows of generations below 5 (all inputs).
  const hiddenKey = KEYS[1]![0];
  const range = [shard.baseNs + 200_000n, shard.baseNs + 900_000n] as const;
  const filter: TombstoneFilter = {
    isClean: () => false,
    hidden: (_shard, s, f, gen) => (fieldKey(s, f) === hiddenKey && gen < 5 ? [range] : []),
  };
  // Simulate a crash after the output was published and before the swap.
  const files = shard.files!;
  const inputs = files.files().map((r, i) => ({ reader: r, generation: i + 1 }));
  const w = await TsmWriter.create(files.pathFor(plan.output), { level: plan.level });
  await mergeFiles(inputs, w, { baseNs: shard.baseNs, hidden: (s, f, g) => filter.hidden(shard, s, f, g) });
  await w.finish();
  await shard.close();

  shard.files = await TsmFileSet.open(dir, { logger: silentLogger });
  assert.equal(shard.files.files().length, 5);
  // Without tombstones applied (raw read path), the output wins every duplicate: same rows as
  // before outside the tombstoned range, and the purged rows are only in the old inputs.
  const raw = await readAll(shard);
  for (const [key] of KEYS) if (key !== hiddenKey) assert.deepEqual(raw.get(key), before.get(key));
  // With tombstones applied per file (as reads do), every key reads as before minus hidden rows.
  const visible = await Promise.all(
    shard.files.files().map(async (r) => {
      const gen = Number(basename(r.path).slice(0, 9));
      const rows = await readRows(r, shard.baseNs);
      for (const [key, list] of rows) {
        rows.set(
          key,
          list.filter(([t]) => !filter.hidden(shard, ...splitKey(key), gen).some(([lo, hi]) => shard.baseNs + BigInt(t) >= lo && shard.baseNs + BigInt(t) <= hi)),
        );
      }
      return rows;
    }),
  );
  const expected = new Map(before);
  expected.set(hiddenKey, before.get(hiddenKey)!.filter(([t]) => t < 200_000 || t > 900_000));
  assert.deepEqual(lastWriteWins(visible), expected);

  // A later full compaction folds the leftovers away.
  const [full] = planCompactions(planFiles(shard), { nowMs: 10, lastWriteMs: 0, coldAfterMs: 1 });
  assert.equal(full?.kind, 'full');
  await compact(shard, full!, { logger: silentLogger, filter });
  assert.deepEqual(shard.files.files().map((r) => basename(r.path)), ['000000004-000000003.tsm']);
  assert.deepEqual(await readAll(shard), expected);
  await cleanup(shard, dir);
});

function splitKey(key: string): [string, string] {
  const at = key.indexOf('#!~#');
  return [key.slice(0, at), key.slice(at + 4)];
}

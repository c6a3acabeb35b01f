/**
 * A crash between a compaction's swap and the directory fsync of its `.obsolete` markers
 * (engine/tsm/obsolete-files.ts) leaves the replaced inputs on disk, unmarked, beside the output
 * holding the same points. At the next start they are live files again. What must hold: no point
 * served twice, no aggregate counting one twice (count() and sum() read block statistics where
 * blocks do not overlap), the newest value of an overwritten point wins, and a DELETE answered
 * after the compaction (its tombstone covering the output) still hides the rows the old inputs
 * hold; after the full compaction that folds the inputs away and the tombstone collection that
 * follows it, and after another restart, too.
 *
 * The engine prepares the directory (four flushes, the level compaction, the DELETE), the
 * inputs are put back without markers, then a real server answers the queries.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Engine, engineOptions } from '../../engine/index.js';
import { removeDir, serverRows, startServer, stopServer, type Server } from './harness.js';
import { tsmFiles, waitFor } from './fault-injection.js';

const DB = 'd';
const FILES = 4;
const PER_FILE = 50;

/** Flush f writes k=a at times f*PER_FILE + i (s) and overwrites the previous flush's first ten; k=b alike. */
function body(f: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < PER_FILE; i++) for (const k of ['a', 'b']) lines.push(`m,k=${k} v=${f * 1000 + i} ${f * PER_FILE + i}`);
  if (f > 0) for (let i = 0; i < 10; i++) lines.push(`m,k=a v=${f * 1000 + 500 + i} ${(f - 1) * PER_FILE + i}`);
  return Buffer.from(lines.join('\n'));
}

/** k=a as acknowledged: time (s) -> last value written. */
function expectedA(): Map<number, number> {
  const out = new Map<number, number>();
  for (let f = 0; f < FILES; f++) {
    for (let i = 0; i < PER_FILE; i++) out.set(f * PER_FILE + i, f * 1000 + i);
    if (f > 0) for (let i = 0; i < 10; i++) out.set((f - 1) * PER_FILE + i, f * 1000 + 500 + i);
  }
  return out;
}

async function check(srv: Server, when: string): Promise<void> {
  const a = expectedA();
  const rows = await serverRows(srv, "SELECT v FROM m WHERE k = 'a'", DB, when);
  assert.equal(rows.length, a.size, `${when}: ${rows.length} rows of k=a for ${a.size} points`);
  for (const [t, v] of rows) assert.equal(v, a.get((t as number) / 1000), `${when}: k=a at ${t as number}`);
  const sum = [...a.values()].reduce((x, y) => x + y, 0);
  const agg = await serverRows(srv, 'SELECT count(v), sum(v), min(v), max(v) FROM m', DB, when);
  assert.deepEqual(agg[0]?.slice(1), [a.size, sum, Math.min(...a.values()), Math.max(...a.values())], `${when}: aggregates`);
  const perSeries = await serverRows(srv, 'SELECT count(v) FROM m GROUP BY time(1h)', DB, when);
  assert.equal(perSeries[0]?.[1], a.size, `${when}: count by time`);
  assert.deepEqual(await serverRows(srv, "SELECT v FROM m WHERE k = 'b'", DB, when), [], `${when}: deleted rows are back`);
}

test('inputs a crash left unmarked beside their compaction output: served once, deleted rows stay hidden', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-unmarked-'));
  try {
    const engine = await Engine.open(
      engineOptions({
        walDir: join(dir, 'wal'),
        metaDir: join(dir, 'meta'),
        dataDir: join(dir, 'engine'),
        flushIntervalSec: 0,
        compaction: { intervalMs: 0, coldAfterMs: 4 * 3600 * 1000, maxFileBytes: 256 * 1024 * 1024 },
      }),
    );
    await engine.catalog.createDatabase(DB);
    for (let f = 0; f < FILES; f++) {
      await engine.write({ db: DB, precision: 's', body: body(f) });
      await engine.flush();
    }
    const inputs = tsmFiles(dir).map((name) => join(dir, 'engine', name));
    assert.equal(inputs.length, FILES);
    const saved = inputs.map((p) => readFileSync(p));
    await (engine as unknown as { compactor: { runOnce(): Promise<void> } }).compactor.runOnce();
    assert.equal(tsmFiles(dir).length, 1, 'the level compaction ran and removed its inputs');
    // Answered after the swap: its tombstone covers the output and everything below it.
    await engine.delete({ db: DB, measurements: ['m'], expr: { op: 'eq', key: 'k', value: 'b' }, minNs: -(2n ** 62n), maxNs: 2n ** 62n, dropSeries: false });
    await engine.close();
    // The crash: neither the markers nor the removals reached the disk.
    inputs.forEach((p, i) => writeFileSync(p, saved[i]!));
    assert.equal(readdirSync(join(inputs[0]!, '..')).filter((n) => n.endsWith('.obsolete')).length, 0);
    assert.equal(tsmFiles(dir).length, FILES + 1);

    // A shard cold after a second: the full compaction folds the inputs away, then tombstones are collected.
    const env = { SERVICE__FLUSH__INTERVAL_SECS: '1', SERVICE__STORAGE__COMPACT_FULL_WRITE_COLD_DURATION: '1s' };
    let srv = await startServer({ dir, env: { SERVICE__FLUSH__INTERVAL_SECS: '3600' } });
    try {
      await check(srv, 'with the unmarked inputs live');
      await stopServer(srv, 'SIGKILL');
      srv = await startServer({ dir, env });
      assert.ok(await waitFor(() => tsmFiles(dir).length === 1, 30_000), `no full compaction: ${tsmFiles(dir).join(' ')}`);
      await check(srv, 'after the full compaction');
      // The rows are purged everywhere, so the collection drops the DELETE's tombstone: from now on only the purge hides them.
      assert.ok(await waitFor(() => /"tombstones":\[\]/.test(readFileSync(join(dir, 'meta', 'catalog.json'), 'utf8')), 15_000), 'the tombstone was not collected');
      await stopServer(srv, 'SIGKILL');
      srv = await startServer({ dir, env });
      await check(srv, 'after the full compaction and a restart');
    } finally {
      await stopServer(srv, 'SIGKILL');
    }
  } finally {
    removeDir(dir);
  }
});

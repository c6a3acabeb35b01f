/**
 * `strata inspect` over things that are not readable files where files belong (a directory
 * from a copy gone wrong), or a file where a shard directory belongs: each is reported as a
 * problem (exit 2), never a tool failure (exit 1, as before for a WAL segment or a series log
 * that was a directory) nor passed over.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERIES_LOG_FILE } from '../series/log.js';
import { tempDir } from '../testing/temp-dir.js';
import { segmentFileName } from '../wal/record.js';
import { Wal } from '../wal/wal.js';
import { fixtureEntry } from '../wal/crash-writer.fixture.js';
import { inspectDataDir, inspectSeriesLogs, inspectWalDir } from './inspect.js';

test('a directory in place of a WAL segment or a series log is a reported problem', async (t) => {
  const root = await tempDir(t, 'strata-inspect-');
  const walDir = join(root, 'wal');
  const wal = await Wal.open(walDir, { segmentSizeBytes: 1024 });
  for (let i = 0; i < 3; i++) await wal.append(fixtureEntry(i, 100));
  await wal.close();
  await mkdir(join(walDir, segmentFileName(1000n)));
  await mkdir(join(root, 'data', 'db', SERIES_LOG_FILE), { recursive: true });

  const segments = await inspectWalDir(walDir);
  assert.equal(segments.reduce((n, s) => n + s.entries, 0), 3);
  const bad = segments.filter((s) => s.problems.length > 0);
  assert.deepEqual(bad.map((s) => s.file), [join(walDir, segmentFileName(1000n))]);
  assert.match(bad[0]!.problems[0]!.reason, /cannot read|not a file/);

  const logs = await inspectSeriesLogs(join(root, 'data'));
  assert.equal(logs.length, 1);
  assert.match(logs[0]!.problems[0]!.reason, /cannot read/);
});

test('a file in place of a shard directory is a reported problem', async (t) => {
  const root = await tempDir(t, 'strata-inspect-');
  await mkdir(join(root, 'data', 'db', 'autogen', '1699833600_604800'), { recursive: true });
  await writeFile(join(root, 'data', 'db', 'autogen', '1700438400_604800'), '');
  // Before: not listed at all, and inspect exited 0 while the server served nothing of it.
  const shards = await inspectDataDir(join(root, 'data'));
  const problems = shards.flatMap((s) => s.files.flatMap((f) => f.problems));
  assert.deepEqual(problems.map((p) => p.reason), ['a file where a shard directory belongs']);
});

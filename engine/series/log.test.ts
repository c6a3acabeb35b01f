import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SeriesLog, SERIES_LOG_FILE, type SeriesLogRecord } from './log.js';
import { initChecksum } from '../fs/checksum.js';
import { collectingLogger, silentLogger } from '../logger.js';
import { tempDir, type CleanupScope } from '../testing/temp-dir.js';

const recs: SeriesLogRecord[] = [
  { t: 's', id: 0, k: 'cpu,host=a', m: 'cpu', g: ['host', 'a'] },
  { t: 'f', m: 'cpu', f: 'v', y: 0 },
  { t: 's', id: 1, k: 'cpu,host=b', m: 'cpu', g: ['host', 'b'] },
];

async function written(t: CleanupScope) {
  await initChecksum();
  const path = join(await tempDir(t, 'strata-slog-'), SERIES_LOG_FILE);
  const { log } = await SeriesLog.open(path, silentLogger);
  for (const r of recs) log.append(r);
  await log.close();
  return path;
}

test('records survive reopen', async (t) => {
  const path = await written(t);
  const { records, log } = await SeriesLog.open(path, silentLogger);
  assert.deepEqual(records, recs);
  await log.close();
});

test('corruption table for the series log', async (t) => {
  const rows: { name: string; damage: (b: Buffer) => Buffer; keep: number }[] = [
    { name: 'truncated tail keeps the complete records', damage: (b) => b.subarray(0, b.length - 3), keep: 2 },
    { name: 'flipped checksum byte cuts from that record', damage: (b) => { const c = Buffer.from(b); c[8 + 4] = c[8 + 4]! ^ 0xff; return c; }, keep: 0 },
    { name: 'bad length cuts from that record', damage: (b) => { const c = Buffer.from(b); c.writeUInt32LE(0xffffff, 8); return c; }, keep: 0 },
    { name: 'zero-filled tail page', damage: (b) => Buffer.concat([b, Buffer.alloc(4096)]), keep: 3 },
    { name: '0-byte file starts empty', damage: () => Buffer.alloc(0), keep: 0 },
  ];
  for (const row of rows) {
    await t.test(row.name, async () => {
      const path = await written(t);
      await writeFile(path, row.damage(await readFile(path)));
      const logger = collectingLogger();
      const { records, log } = await SeriesLog.open(path, logger);
      assert.deepEqual(records, recs.slice(0, row.keep));
      log.append(recs[0]!);
      await log.close();
      const again = await SeriesLog.open(path, silentLogger);
      assert.deepEqual(again.records, [...recs.slice(0, row.keep), recs[0]]);
      assert.ok((await stat(path)).size > 8);
      await again.log.close();
    });
  }
});

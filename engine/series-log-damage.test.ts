/**
 * A damaged, empty or misplaced series log after a clean shutdown (the WAL holds nothing to
 * re-register series from): every point in the TSM files must still be found by queries, and
 * nothing the damaged log held is deleted. Before Database.completeFromFiles, one flipped byte
 * in series.log hid every point of the database (no series, no fields).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from './engine.js';
import { collectingLogger } from './logger.js';
import { FieldType } from './point.js';
import { SERIES_LOG_FILE, SERIES_LOG_QUARANTINE_DIR } from './series/log.js';
import { openTestEngine } from './testing/open-engine.js';
import { readSeries } from './testing/read-all.js';
import { tempDir } from './testing/temp-dir.js';

const T0 = 1_700_000_000_000_000_000n;
const DAY = 86_400_000_000_000n;

async function populate(root: string): Promise<void> {
  const e = await openTestEngine(root);
  await e.catalog.createDatabase('d');
  const lines: string[] = [];
  // Three weeks: three shards, two series, a float and a string field.
  for (let i = 0; i < 21; i++) lines.push(`m,host=h${i % 2} v=${i}.5,s="x${i}" ${T0 + BigInt(i) * DAY}`);
  await e.write({ db: 'd', precision: 'ns', body: new TextEncoder().encode(lines.join('\n')) });
  await e.close();
}

async function check(e: Engine): Promise<void> {
  const index = (await e.database('d')).index;
  assert.equal(index.seriesCount, 2);
  assert.equal(index.fieldType('m', 'v'), FieldType.Float);
  assert.equal(index.fieldType('m', 's'), FieldType.String);
  for (const host of ['h0', 'h1']) {
    const got = await readSeries(e, { db: 'd', measurement: 'm', seriesKey: `m,host=${host}`, field: 'v' });
    assert.equal(got.length, host === 'h0' ? 11 : 10, host);
  }
}

const rows: { name: string; damage: (log: string) => Promise<void>; quarantined: boolean }[] = [
  {
    name: 'a flipped byte in the first record',
    damage: async (log) => {
      const b = await readFile(log);
      b[20] = b[20]! ^ 0x5a;
      await writeFile(log, b);
    },
    quarantined: true,
  },
  { name: 'an empty file', damage: (log) => writeFile(log, ''), quarantined: false },
  { name: 'the file deleted', damage: (log) => rm(log), quarantined: false },
  { name: 'a directory in its place', damage: async (log) => rm(log).then(() => mkdir(log)), quarantined: true },
];

for (const row of rows) {
  test(`series log damage (${row.name}): the index is completed from TSM keys`, async (t) => {
    const root = await tempDir(t, 'strata-slog-damage-');
    await populate(root);
    const log = join(root, 'data', 'd', SERIES_LOG_FILE);
    await row.damage(log);
    const logger = collectingLogger();
    const e = await openTestEngine(root, {}, { logger });
    try {
      await check(e);
      assert.ok(logger.entries.some((x) => /completed from TSM keys/.test(x.msg)), 'the rebuild is logged');
      const aside = await readdir(join(root, 'data', 'd', SERIES_LOG_QUARANTINE_DIR)).catch(() => []);
      assert.equal(aside.length > 0, row.quarantined, `quarantine holds ${aside.join(', ')}`);
    } finally {
      await e.close();
    }
    // The rebuilt entries were logged: the next start needs no rebuild.
    const again = await openTestEngine(root, {}, { logger });
    try {
      await check(again);
      assert.deepEqual(again.catalog.databases().map((d) => d.name), ['d']);
    } finally {
      await again.close();
    }
  });
}

/**
 * A series dropped (DROP SERIES, or the last series of a measurement) and written again in a
 * later process: its points must still be readable after the next restart. The series log was
 * replayed by skipping every series whose id any drop record named, and a restart after the
 * drop handed the dropped id out again, so the rewritten series vanished from the index (its
 * points on disk but never read) at the second restart. Found by the SIGKILL torture's catalog
 * actor (DROP RETENTION POLICY drops the series left without data).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from './engine.js';
import { engineOptions } from './options.js';
import { MAX_TIME_NS, MIN_TIME_NS } from './time.js';
import { TRUE_EXPR } from './series/tag-expr.js';
import { readSeries } from './testing/read-all.js';
import { Database, encodeName } from './database.js';
import { SeriesLog, SERIES_LOG_FILE } from './series/log.js';
import { silentLogger } from './logger.js';
import { FieldType } from './point.js';

test('a dropped series written again in a later process survives the next restart, and its id is not reused', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-series-rewritten-'));
  const options = engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 });
  let engine = await Engine.open(options);
  const reopen = async () => {
    await engine.close();
    engine = await Engine.open(options);
  };
  const read = async () => (await readSeries(engine, { db: 'd', measurement: 'm', seriesKey: 'm,c=x', field: 'v' })).map((r) => Number(r[1]));
  try {
    await engine.createDatabase('d');
    await engine.write({ db: 'd', precision: 's', body: Buffer.from('m,c=x v=1i 1672876800\nm,c=y v=9i 1672876800') });
    const firstId = (await engine.database('d')).index.nextId;
    await engine.delete({ db: 'd', measurements: ['m'], expr: TRUE_EXPR, minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: true });
    await reopen();
    await engine.write({ db: 'd', precision: 's', body: Buffer.from('m,c=x v=2i 1672876900') });
    assert.deepEqual(await read(), [2]);
    assert.ok((await engine.database('d')).index.nextId > firstId, 'a dropped series id was handed out again');
    await reopen();
    assert.deepEqual(await read(), [2], 'the series written again is gone after a restart');
    await engine.write({ db: 'd', precision: 's', body: Buffer.from('m,c=x v=3i 1672877000') });
    await reopen();
    assert.deepEqual(await read(), [2, 3]);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('a series log that handed a dropped id out again (written before ids stopped being reused) replays to the live index', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-series-rewritten-'));
  try {
    const dir = join(root, encodeName('d'));
    await mkdir(dir, { recursive: true });
    const { log } = await SeriesLog.open(join(dir, SERIES_LOG_FILE), silentLogger);
    const x = { t: 's' as const, id: 0, k: 'm,c=x', m: 'm', g: ['c', 'x'] };
    for (const rec of [{ t: 'f' as const, m: 'm', f: 'v', y: FieldType.Integer }, x, { t: 'd' as const, ids: [0] }, x]) log.append(rec);
    await log.close();
    const db = await Database.open(root, 'd', { maxTagValuesPerMeasurement: 0, maxMeasurementsPerDatabase: 0 }, silentLogger);
    try {
      assert.deepEqual(db.index.measurement('m')?.seriesIds, [0]);
      assert.equal(db.index.measurement('m')?.fields.get('v'), FieldType.Integer);
    } finally {
      await db.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

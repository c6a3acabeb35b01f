/**
 * Regression: concurrent first writes to a database whose storage is not open yet. Each used
 * to open its own Database object and the last one opened replaced the others, so a write
 * acknowledged before that lost its series (and its cache rows) from every later read, and
 * its data never reached a TSM file. Seen as `count(*)` short by whole 5000-line bodies right
 * after every /write had returned 204 (perf/README.md, HTTP ingest).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';

const WRITERS = 8;

for (const parseWorkers of [0, 2]) {
  test(`concurrent first writes all stay visible and durable (parse workers: ${parseWorkers})`, async () => {
    const root = await mkdtemp(join(tmpdir(), 'strata-first-write-'));
    const options = engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, parseWorkers });
    let engine = await Engine.open(options);
    try {
      await engine.catalog.createDatabase('db');
      const body = (w: number) => Buffer.from(`m,w=${w} v=${w} 10\nm,w=${w} v=${w + 100} 20`);
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => engine.write({ db: 'db', precision: 's', body: body(w) })));
      const check = async (e: Engine, when: string) => {
        for (let w = 0; w < WRITERS; w++) {
          const rows = await readSeries(e, { db: 'db', measurement: 'm', seriesKey: `m,w=${w}`, field: 'v' });
          assert.deepEqual(rows, [[10_000_000_000n, w], [20_000_000_000n, w + 100]], `${when}: writer ${w}`);
          assert.notEqual(e.openedDatabase('db')?.index.seriesId(`m,w=${w}`), undefined, `${when}: series of writer ${w}`);
        }
      };
      await check(engine, 'after the acks');
      await engine.flush();
      await engine.close();
      engine = await Engine.open(options);
      await check(engine, 'after flush and restart');
    } finally {
      await engine.close();
      await rm(root, { recursive: true, force: true });
    }
  });
}

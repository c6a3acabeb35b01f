import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';
import { tempDir } from '../../engine/testing/temp-dir.js';

/** last()/first() read one row per series; a row filter forces the full scan: both must agree. */
test('last() and first() without GROUP BY time answer like the full scan', async (t) => {
  const root = await tempDir(t, 'strata-edge-');
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  await engine.catalog.createDatabase('db');
  const lines = (from: number, to: number) => {
    const out: string[] = [];
    for (let t = from; t < to; t++) for (const h of ['a', 'b', 'c']) out.push(`m,host=${h} v=${(t * 7 + h.charCodeAt(0)) % 50},s="x${t}" ${1_700_000_000 + t * 3600 * 24 * 3}`);
    return Buffer.from(out.join('\n'));
  };
  await engine.write({ db: 'db', precision: 's', body: lines(0, 20) });
  await engine.flush(); // TSM files over several 7-day shards
  await engine.write({ db: 'db', precision: 's', body: lines(20, 25) }); // cache
  const run = async (q: string) => JSON.stringify(await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n }), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  for (const [fast, scan] of [
    ['SELECT last(v) FROM m', "SELECT last(v) FROM m WHERE v > -1000"],
    ['SELECT first(v) FROM m', "SELECT first(v) FROM m WHERE v > -1000"],
    ['SELECT last(v) FROM m GROUP BY host', "SELECT last(v) FROM m WHERE v > -1000 GROUP BY host"],
    ['SELECT first(s), last(v) FROM m GROUP BY host', "SELECT first(s), last(v) FROM m WHERE v > -1000 GROUP BY host"],
    ["SELECT last(v) FROM m WHERE time < '2023-12-01T00:00:00Z'", "SELECT last(v) FROM m WHERE time < '2023-12-01T00:00:00Z' AND v > -1000"],
  ]) {
    assert.equal(await run(fast!), await run(scan!), fast);
  }
  await engine.close();
});

/**
 * SELECT ... INTO a name holding an escaped character: 1.6.7 lists the target as its NewPoint
 * does (`"a\\,b"` is `a,b`, `"e\\=f"` is `e=f`; conformance case s-w959), and the points must
 * still be there when a restart replays them from the WAL, where they are line protocol.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';

test('INTO a name with an escape writes the name 1.6.7 lists, and a restart reads it back', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-into-names-'));
  const open = () => Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  const run = async (engine: Engine, q: string) =>
    JSON.stringify(await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n }), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  const read = 'SELECT v FROM "a,b", "e=f"';
  const expected =
    '[{"statementId":0,"series":[{"name":"a,b","columns":["time","v"],"values":[["1000000000",1.5]]},' +
    '{"name":"e=f","columns":["time","v"],"values":[["1000000000",1.5]]}]}]';
  let engine = await open();
  try {
    await engine.catalog.createDatabase('db');
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('m v=1.5 1') });
    await run(engine, 'SELECT v INTO "a\\\\,b" FROM m; SELECT v INTO "e\\\\=f" FROM m');
    assert.equal(await run(engine, read), expected);
    await engine.close();
    engine = await open();
    assert.equal(await run(engine, read), expected);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});


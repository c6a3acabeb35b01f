/**
 * Dense GROUP BY time windows through a real engine (cache, TSM files, several shards, whole
 * blocks with stats) answer what the general path answers. TZ('UTC') has the same windows but
 * is never dense (a zone can make windows uneven), so it is the reference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';

const DAY = 86_400;
const START = 1_700_000_000 - (1_700_000_000 % DAY);

function lines(from: number, to: number): Buffer {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    // Gaps: some windows of every series stay empty.
    if (i % 17 === 5 || i % 23 === 0) continue;
    for (const h of ['a', 'b', 'c']) {
      const v = ((i * 7919 + h.charCodeAt(0) * 31) % 41) - 20;
      out.push(`m,host=${h} v=${v}i,f=${v / 4},big=${h === 'c' && i === 50 ? 2 ** 60 : v}i,b=${v > 0} ${START + i * 3 * 3600}`);
    }
  }
  return Buffer.from(out.join('\n'));
}

test('dense GROUP BY time answers as the general path', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-dense-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  try {
    await engine.catalog.createDatabase('db');
    await engine.write({ db: 'db', precision: 's', body: lines(0, 120) });
    await engine.flush(); // TSM files over several 7-day shards
    await engine.write({ db: 'db', precision: 's', body: lines(120, 160) }); // cache
    const run = async (q: string) => {
      const [r] = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
      return JSON.stringify(r?.error ?? r?.series, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    };
    const from = `'${new Date((START + 7 * 3600) * 1000).toISOString()}'`;
    const to = `'${new Date((START + 150 * 3 * 3600) * 1000).toISOString()}'`;
    const range = `time >= ${from} AND time < ${to}`;
    const queries = [
      `SELECT max(v) FROM m WHERE ${range} GROUP BY time(1d)`,
      `SELECT max(v), min(v), count(v) FROM m WHERE host = 'a' AND ${range} GROUP BY time(6h)`,
      `SELECT max(f), min(v) FROM m WHERE ${range} GROUP BY time(5h, 2h) fill(none)`,
      `SELECT count(f) AS n, max(f) FROM m WHERE ${range} GROUP BY time(4h, -1h), host fill(previous)`,
      `SELECT max(v), count(v) FROM m WHERE ${range} GROUP BY time(7h) fill(-1.5)`,
      `SELECT count(v), min(f) FROM m WHERE ${range} GROUP BY time(9h) fill(previous) ORDER BY time DESC`,
      `SELECT min(v) FROM m WHERE ${range} GROUP BY time(2d) ORDER BY time DESC LIMIT 3 OFFSET 1`,
      `SELECT max(v), max(nosuch) FROM m WHERE ${range} GROUP BY time(1d)`,
      `SELECT count(v) FROM m WHERE ${range} GROUP BY time(1h)`,
      // Falls back: a value beyond 2^53 (bigint column), booleans.
      `SELECT max(big), count(big) FROM m WHERE ${range} GROUP BY time(1d)`,
      `SELECT max(b), min(b) FROM m WHERE ${range} GROUP BY time(1d), host`,
    ];
    for (const q of queries) {
      assert.equal(await run(q), await run(`${q} tz('UTC')`), q);
    }
    // count() of a subquery: empty windows are no rows there (not 0).
    const inner = `SELECT count(v) AS n FROM m WHERE ${range} GROUP BY time(2h)`;
    assert.equal(await run(`SELECT count(n) FROM (${inner}) WHERE ${range}`), await run(`SELECT count(n) FROM (${inner} tz('UTC')) WHERE ${range}`));
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

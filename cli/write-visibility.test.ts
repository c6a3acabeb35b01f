/**
 * Write visibility under concurrency, over real HTTP: several connections post bodies to a
 * freshly created database at once (the first writes race through the database's first open),
 * and after every round of 204s `count(*)` must include every acknowledged point, before and
 * after a flush and after a restart. Regression test for one body of 5,000 lines missing from
 * `count(*)` in an ingest benchmark (two opens of one database, one of them lost).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exec, http, query, removeDir, rows, startServer, stopServer } from './clients/harness.js';

const CONNECTIONS = 8;
const ROUNDS = 4;
const LINES = 500;

function body(db: number, conn: number, round: number): string {
  const out: string[] = [];
  const base = 1_700_000_000 + round * LINES;
  for (let i = 0; i < LINES; i++) out.push(`m,db=${db},c=${conn} v=${i}i,w=${i * 0.5} ${base + i}`);
  return out.join('\n');
}

async function count(port: number, db: string): Promise<number> {
  const r = rows(await query(port, 'SELECT count(v) FROM m', { db }));
  return Number(r[0]?.[1] ?? 0);
}

test('concurrent first writes over HTTP: every acknowledged point is counted, also after flush and restart', { timeout: 300_000 }, async () => {
  let srv = await startServer({ env: { SERVICE__LOGGING__LEVEL: 'warn' } });
  const dir = srv.dir;
  try {
    // Several fresh databases, so the first-open race happens more than once.
    for (let d = 0; d < 3; d++) {
      const db = `vis${d}`;
      await exec(srv.port, `CREATE DATABASE ${db}`);
      let acknowledged = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const answers = await Promise.all(
          Array.from({ length: CONNECTIONS }, (_, c) => http(srv.port, 'POST', `/write?db=${db}&precision=s`, body(d, c, round))),
        );
        for (const a of answers) assert.equal(a.status, 204, a.body);
        acknowledged += CONNECTIONS * LINES;
        assert.equal(await count(srv.port, db), acknowledged, `${db} after round ${round}`);
      }
    }
    // A graceful stop flushes; a restart then reads everything back from TSM files.
    await stopServer(srv);
    srv = await startServer({ dir, env: { SERVICE__LOGGING__LEVEL: 'warn' } });
    for (let d = 0; d < 3; d++) assert.equal(await count(srv.port, `vis${d}`), CONNECTIONS * ROUNDS * LINES, `vis${d} after restart`);
  } finally {
    await stopServer(srv);
    removeDir(dir);
  }
});

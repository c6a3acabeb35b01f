/**
 * Drops and a SIGKILL, then a restart on the same directories.
 *
 * An answered DROP SERIES / DROP MEASUREMENT stays dropped: its series do not come back in
 * SHOW SERIES / SHOW MEASUREMENTS (engine/write/delete.ts syncs the series log before the
 * answer), whether the rows were in TSM files or still in the WAL.
 *
 * DROP SHARD cut short by SIGKILL at random moments:
 * the server must start, the other shard's points must all be there, and the dropped shard's
 * rows are all there or all gone (the drop's tombstone is written before anything is removed:
 * engine/retention/remove-shards.ts). After a drop that was answered, the shard, its rows and
 * the series only it held are gone, and a restart keeps it so.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exec, http, removeDir, serverRows, startServer, stopServer, type Server } from './harness.js';
import { mulberry32 } from '../../engine/random.js';

const DB = 'd';
const HOUR = 3600;
const PER_HOUR = 300;

/** Hour 0 holds series a and b, hour 1 holds a and c, PER_HOUR points each, one shard per hour. */
function lines(): string {
  const out: string[] = [];
  for (let i = 0; i < PER_HOUR; i++) {
    const t0 = i * 10;
    const t1 = HOUR + i * 10;
    out.push(`m,h=a v=${i}i ${t0}`, `m,h=b v=${i}i ${t0}`, `m,h=a v=${i}i ${t1}`, `m,h=c v=${i}i ${t1}`);
  }
  return out.join('\n');
}

/** Points per series in [fromSec, toSec). */
async function counts(srv: Server, fromSec: number, toSec: number, context: string): Promise<Map<string, number>> {
  const res = await http(srv.port, 'GET', `/query?db=${DB}&q=${encodeURIComponent(`SELECT count(v) FROM m WHERE time >= ${fromSec}s AND time < ${toSec}s GROUP BY h`)}`);
  assert.equal(res.status, 200, `${context}: ${res.body}`);
  const body = JSON.parse(res.body) as { results: { series?: { tags: { h: string }; values: number[][] }[] }[] };
  return new Map((body.results[0]?.series ?? []).map((s) => [s.tags.h, s.values[0]![1]!]));
}

async function hourZeroShard(srv: Server): Promise<number | undefined> {
  const shards = await serverRows(srv, 'SHOW SHARDS', undefined, 'SHOW SHARDS');
  // SHOW SHARDS rows: id, database, retention_policy, shard_group, start_time, ...
  return shards.find((r) => r[1] === DB && String(r[4]).startsWith('1970-01-01T00:00:00'))?.[0] as number | undefined;
}

test('an answered DROP SERIES and DROP MEASUREMENT survive a SIGKILL right after the answer', { timeout: 300_000 }, async () => {
  for (const from of ['TSM files', 'the WAL']) {
    let srv = await startServer();
    const dir = srv.dir;
    try {
      await exec(srv.port, `CREATE DATABASE ${DB}`);
      assert.equal((await http(srv.port, 'POST', `/write?db=${DB}&precision=s`, 'm,h=x v=1i 1\nm,h=y v=2i 1\nn,h=z v=3i 1')).status, 204);
      if (from === 'TSM files') {
        await stopServer(srv); // a graceful stop flushes the caches
        srv = await startServer({ dir });
      }
      await exec(srv.port, `DROP SERIES FROM m WHERE h = 'x'`, { db: DB });
      await exec(srv.port, 'DROP MEASUREMENT n', { db: DB });
      await stopServer(srv, 'SIGKILL');
      srv = await startServer({ dir });
      assert.deepEqual((await serverRows(srv, 'SHOW SERIES', DB, from)).map((r) => r[0]), ['m,h=y'], from);
      assert.deepEqual((await serverRows(srv, 'SHOW MEASUREMENTS', DB, from)).map((r) => r[0]), ['m'], from);
      assert.deepEqual(await counts(srv, 0, HOUR, from), new Map([['y', 1]]), from);
      assert.deepEqual(await serverRows(srv, 'SELECT * FROM n', DB, from), [], from);
    } finally {
      await stopServer(srv, 'SIGKILL');
      removeDir(dir);
    }
  }
});

test('DROP SHARD killed at random moments: the server starts, the other shard is whole, the dropped rows are all or none', { timeout: 300_000 }, async () => {
  const rnd = mulberry32(2701);
  let srv = await startServer();
  const dir = srv.dir;
  try {
    await exec(srv.port, `CREATE DATABASE ${DB} WITH SHARD DURATION 1h`);
    assert.equal((await http(srv.port, 'POST', `/write?db=${DB}&precision=s`, lines())).status, 204);
    // Half the rounds start from TSM files (a graceful stop flushes), half from the WAL and cache.
    for (let round = 0; round < 6; round++) {
      if (round % 2 === 0) {
        await stopServer(srv);
        srv = await startServer({ dir });
      }
      const id = await hourZeroShard(srv);
      if (id === undefined) break; // an earlier round's drop got through before the kill
      void http(srv.port, 'POST', `/query?q=${encodeURIComponent(`DROP SHARD ${id}`)}`).catch(() => undefined);
      await new Promise((r) => setTimeout(r, Math.floor(rnd() * 40)));
      await stopServer(srv, 'SIGKILL');
      srv = await startServer({ dir });
      const context = `round ${round} (restart after SIGKILL)`;
      assert.deepEqual(await counts(srv, HOUR, 2 * HOUR, context), new Map([['a', PER_HOUR], ['c', PER_HOUR]]), context);
      const zero = await counts(srv, 0, HOUR, context);
      assert.ok(zero.size === 0 || (zero.get('a') === PER_HOUR && zero.get('b') === PER_HOUR && zero.size === 2), `${context}: hour 0 partly dropped: ${JSON.stringify([...zero])}`);
    }
    // An answered drop is complete, and stays so across a restart.
    const id = await hourZeroShard(srv);
    if (id !== undefined) await exec(srv.port, `DROP SHARD ${id}`);
    for (const phase of ['answered', 'after a restart']) {
      if (phase !== 'answered') {
        await stopServer(srv, 'SIGKILL');
        srv = await startServer({ dir });
      }
      assert.equal(await hourZeroShard(srv), undefined, phase);
      assert.equal((await counts(srv, 0, HOUR, phase)).size, 0, phase);
      assert.deepEqual(await counts(srv, HOUR, 2 * HOUR, phase), new Map([['a', PER_HOUR], ['c', PER_HOUR]]), phase);
      const series = (await serverRows(srv, 'SHOW SERIES', DB, phase)).map((r) => r[0]);
      assert.deepEqual(series, ['m,h=a', 'm,h=c'], phase);
    }
  } finally {
    await stopServer(srv, 'SIGKILL');
    removeDir(dir);
  }
});

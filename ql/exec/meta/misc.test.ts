/** SHOW SHARDS / SHARD GROUPS / STATS / DIAGNOSTICS / QUERIES / SUBSCRIPTIONS, DROP SHARD, KILL QUERY, dispatch. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { parseStatement } from '../../parser/query.js';
import { executeMetaStatement, isMetaStatement } from './index.js';
import { shardId } from './show-shards.js';
import { context, openTestEngine, run, series1, write, type TestEngine } from './test-support.js';

let t: TestEngine;
before(async () => {
  t = await openTestEngine();
  await run(t.engine, 'CREATE DATABASE a; CREATE DATABASE b; CREATE RETENTION POLICY week ON b DURATION 7d REPLICATION 1');
  await write(t.engine, 'a', 'm v=1 1000000000\nm v=2 1000000000000000000');
  await write(t.engine, 'b', 'm v=1 86400000000000', 'ns', 'week');
});
after(async () => t.close());

const SHARD_COLUMNS = ['id', 'database', 'retention_policy', 'shard_group', 'start_time', 'end_time', 'expiry_time', 'owners'];

test('SHOW SHARDS: a series per database, stable ids, expiry from the policy', async () => {
  const shards = t.engine.openedDatabase('a')?.shardSets.get('autogen')?.shards ?? [];
  assert.equal(shards.length, 2);
  const rowsA = shards.map((s) => {
    const id = shardId('a', 'autogen', s.startSec);
    const end = new Date((s.startSec + s.spanSec) * 1000).toISOString().replace('.000Z', 'Z');
    return [id, 'a', 'autogen', id, new Date(s.startSec * 1000).toISOString().replace('.000Z', 'Z'), end, end, ''];
  });
  const got = await series1(t.engine, 'SHOW SHARDS');
  assert.deepEqual(got?.[0], { name: 'a', columns: SHARD_COLUMNS, values: rowsA });
  const b = got?.[1] as { name: string; values: unknown[][] };
  assert.equal(b.name, 'b');
  assert.equal(b.values.length, 1);
  const [row] = b.values;
  assert.equal(row?.[2], 'week');
  assert.equal(Date.parse(String(row?.[6])) - Date.parse(String(row?.[5])), 7 * 86400 * 1000);
  assert.deepEqual(await series1(t.engine, 'SHOW SHARDS'), got, 'ids are stable');
  const groups = (await series1(t.engine, 'SHOW SHARD GROUPS')) as { name: string; columns: string[]; values: unknown[][] }[];
  assert.equal(groups[0]?.name, 'shard groups');
  assert.deepEqual(groups[0]?.columns, ['id', 'database', 'retention_policy', 'start_time', 'end_time', 'expiry_time']);
  assert.equal(groups[0]?.values.length, 3);
});

test('DROP SHARD removes the shard (rows, SHOW SHARDS row, directory); unknown ids are a no-op', async () => {
  const [first] = t.engine.openedDatabase('a')?.shardSets.get('autogen')?.shards ?? [];
  assert.ok(first);
  assert.deepEqual(await run(t.engine, 'DROP SHARD 1'), [{}]);
  assert.deepEqual(await run(t.engine, `DROP SHARD ${shardId('a', 'autogen', first.startSec)}`), [{}]);
  const c = t.engine.cursor({ db: 'a', rp: 'autogen', measurement: 'm', seriesKey: 'm', field: 'v', startNs: 0n, endNs: 2_000_000_000_000_000_000n, ascending: true });
  const b = await c.next();
  c.close();
  assert.equal(b?.offsets.length, 1);
  assert.equal(b ? b.base + BigInt(b.offsets[0] ?? 0) : 0n, 1_000_000_000_000_000_000n);
  const left = t.engine.openedDatabase('a')?.shardSets.get('autogen')?.shards ?? [];
  assert.deepEqual(left.map((s) => s.startSec), [shards1e18StartSec(left)]);
  assert.equal(existsSync(first.dir), false);
});

/** The start of the one shard left: the one holding the point at 1e18 ns. */
function shards1e18StartSec(left: readonly { startSec: number; spanSec: number }[]): number {
  return left.find((s) => s.startSec <= 1e9 && 1e9 < s.startSec + s.spanSec)?.startSec ?? -1;
}

test('SHOW STATS and SHOW DIAGNOSTICS answer real numbers, FOR filters by module', async () => {
  const stats = (await series1(t.engine, 'SHOW STATS')) as { name: string; tags?: Record<string, string>; values: unknown[][] }[];
  // Without a query registry or a server in the context: the runtime, the storage and the engine.
  const names = stats.map((s) => s.name);
  assert.deepEqual(names.slice(0, 3), ['runtime', 'database', 'database']);
  assert.equal(names.at(-1), 'engine');
  assert.deepEqual(new Set(names.slice(3, -1)), new Set(['shard', 'tsm1_cache', 'tsm1_filestore']));
  assert.ok(Number(stats[0]?.values[0]?.[0]) > 0);
  const cache = stats.filter((s) => s.name === 'tsm1_cache');
  assert.deepEqual(new Set(cache.map((s) => s.tags?.database)), new Set(['a', 'b']), 'one per shard, tagged as 1.x tags it');
  for (const s of cache) assert.deepEqual(Object.keys(s.tags ?? {}), ['database', 'engine', 'id', 'path', 'retentionPolicy', 'walPath']);
  assert.deepEqual(await series1(t.engine, "SHOW STATS FOR 'database'"), [
    { name: 'database', tags: { database: 'a' }, columns: ['numMeasurements', 'numSeries'], values: [[1, 1]] },
    { name: 'database', tags: { database: 'b' }, columns: ['numMeasurements', 'numSeries'], values: [[1, 1]] },
  ]);
  const diag = (await series1(t.engine, "SHOW DIAGNOSTICS FOR 'system'")) as { name: string; columns: string[]; values: unknown[][] }[];
  assert.deepEqual(diag.map((s) => [s.name, s.columns]), [['system', ['PID', 'currentTime', 'started', 'uptime']]]);
  assert.equal(diag[0]?.values[0]?.[0], process.pid);
  assert.equal((await series1(t.engine, 'SHOW DIAGNOSTICS'))?.length, 4);
});

test('SHOW QUERIES, KILL QUERY, subscriptions', async () => {
  assert.deepEqual(await series1(t.engine, 'SHOW QUERIES'), [{ columns: ['qid', 'query', 'database', 'duration', 'status'] }]);
  assert.deepEqual(await run(t.engine, 'KILL QUERY 12345'), [{ error: 'no such query id: 12345' }]);
  assert.deepEqual(await run(t.engine, 'SHOW SUBSCRIPTIONS'), [{}]);
  assert.deepEqual(await run(t.engine, "CREATE SUBSCRIPTION s ON a.autogen DESTINATIONS ALL 'udp://h:1'"), [{ error: 'CREATE SUBSCRIPTION is not supported' }]);
});

test('isMetaStatement: everything but SELECT and EXPLAIN', async () => {
  assert.equal(isMetaStatement(parseStatement('SHOW DATABASES')), true);
  assert.equal(isMetaStatement(parseStatement("DELETE FROM m WHERE host = 'a'")), true);
  assert.equal(isMetaStatement(parseStatement('SELECT * FROM m')), false);
  assert.equal(isMetaStatement(parseStatement('EXPLAIN SELECT * FROM m')), false);
  await assert.rejects(executeMetaStatement(parseStatement('SELECT * FROM m'), context(t.engine)), /not supported/);
});

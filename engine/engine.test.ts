import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Engine } from './engine.js';
import { engineOptions } from './options.js';
import { FieldType } from './point.js';
import { readSeries } from './testing/read-all.js';
import { DatabaseNotFoundError, RetentionPolicyNotFoundError } from './errors.js';
import { tempDir, type CleanupScope } from './testing/temp-dir.js';

async function open(t: CleanupScope, dir?: string) {
  const root = dir ?? (await tempDir(t, 'strata-engine-'));
  const engine = await Engine.open(
    engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 }),
  );
  return { root, engine };
}

const body = (s: string) => Buffer.from(s, 'utf8');

test('write is readable at once, survives flush and restart, last write wins', async (t) => {
  const { root, engine } = await open(t);
  await engine.catalog.createDatabase('db');
  await engine.write({ db: 'db', precision: 's', body: body('cpu,host=a v=1 10\ncpu,host=a v=2 20\ncpu,host=b v=9 10') });
  const q = { db: 'db', measurement: 'cpu', seriesKey: 'cpu,host=a', field: 'v' };
  assert.deepEqual(await readSeries(engine, q), [[10_000_000_000n, 1], [20_000_000_000n, 2]]);
  await engine.flush();
  await engine.write({ db: 'db', precision: 's', body: body('cpu,host=a v=5 20\ncpu,host=a v=3 30') });
  assert.deepEqual(await readSeries(engine, q), [[10_000_000_000n, 1], [20_000_000_000n, 5], [30_000_000_000n, 3]]);
  assert.deepEqual(await readSeries(engine, { ...q, ascending: false }), [[30_000_000_000n, 3], [20_000_000_000n, 5], [10_000_000_000n, 1]]);
  await engine.close();
  const again = (await open(t, root)).engine;
  assert.deepEqual(await readSeries(again, q), [[10_000_000_000n, 1], [20_000_000_000n, 5], [30_000_000_000n, 3]]);
  await again.flush();
  assert.deepEqual(await readSeries(again, { ...q, startNs: 15_000_000_000n, endNs: 20_000_000_000n }), [[20_000_000_000n, 5]]);
  await again.close();
});

test('every field type and timestamps beyond 2^53 round trip through TSM', async (ctx) => {
  const { root, engine } = await open(ctx);
  await engine.catalog.createDatabase('db');
  await engine.write({
    db: 'db',
    precision: 'ns',
    body: body('m f=1.5,i=-7i,big=4611686018427387904i,u=18446744073709551615u,s="txt",b=t 1577836800123456789'),
  });
  await engine.flush();
  await engine.close();
  const e = (await open(ctx, root)).engine;
  const read = (field: string) => readSeries(e, { db: 'db', measurement: 'm', seriesKey: 'm', field });
  const t = 1577836800123456789n;
  assert.deepEqual(await read('f'), [[t, 1.5]]);
  assert.deepEqual(await read('i'), [[t, -7]]);
  assert.deepEqual(await read('big'), [[t, 4611686018427387904n]]);
  assert.deepEqual(await read('u'), [[t, 18446744073709551615n]]);
  assert.deepEqual(await read('s'), [[t, 'txt']]);
  assert.deepEqual(await read('b'), [[t, 1]]);
  await e.close();
});

test('partial writes store good lines; errors carry 1.x texts and statuses', async (t) => {
  const { engine } = await open(t);
  await engine.catalog.createDatabase('db');
  await assert.rejects(engine.write({ db: 'nope', precision: 'ns', body: body('m v=1') }), DatabaseNotFoundError);
  await assert.rejects(engine.write({ db: 'db', rp: 'nope', precision: 'ns', body: body('m v=1') }), RetentionPolicyNotFoundError);
  await assert.rejects(engine.write({ db: 'db', precision: 'ns', body: body('m v=1 1000000000\nm v= 2000\nm v=3 3000000000') }), (e: Error & { status: number }) => {
    assert.equal(e.status, 400);
    assert.match(e.message, /^partial write: unable to parse 'm v= 2000': .* dropped=1$/);
    return true;
  });
  assert.equal((await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: 'm', field: 'v' })).length, 2);
  await assert.rejects(engine.write({ db: 'db', precision: 'ns', body: body('m v=1i 5') }), {
    message: 'partial write: field type conflict: input field "v" on measurement "m" is type integer, already exists as type float dropped=1',
  });
  await engine.close();
});

test('a new field given two types in one batch fails the batch as in 1.x: nothing stored, earlier fields created', async (t) => {
  const { engine } = await open(t);
  await engine.catalog.createDatabase('db');
  await assert.rejects(engine.write({ db: 'db', precision: 's', body: body('m,h=a v=1 1\nn w="x" 1\nm,h=b v=2i 2\nm,h=a u=true 3') }), (e: Error & { status: number }) => {
    assert.equal(e.status, 400);
    assert.equal(e.message, 'field type conflict');
    return true;
  });
  const index = engine.openedDatabase('db')!.index;
  assert.equal(index.fieldType('m', 'v'), FieldType.Float);
  assert.equal(index.fieldType('n', 'w'), FieldType.String);
  assert.equal(index.fieldType('m', 'u'), undefined);
  assert.deepEqual(await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: 'm,h=a', field: 'v' }), []);
  // The field now exists as float: the same batch is an ordinary partial write.
  await assert.rejects(engine.write({ db: 'db', precision: 's', body: body('m,h=a v=1 1\nm,h=b v=2i 2') }), /partial write: field type conflict/);
  assert.equal((await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: 'm,h=a', field: 'v' })).length, 1);
  await engine.close();
});

test('writes spread over many shards and a retention policy with 1h shards', async (t) => {
  const { engine } = await open(t);
  await engine.catalog.createDatabase('db');
  await engine.catalog.createRetentionPolicy('db', { name: 'short', durationSec: 86400, replicaN: 1 }, false);
  const lines = [];
  for (let i = 0; i < 50; i++) lines.push(`m v=${i} ${1709942400 + i * 1800}`);
  await engine.write({ db: 'db', rp: 'short', precision: 's', body: body(lines.join('\n')) });
  await engine.flush();
  const rows = await readSeries(engine, { db: 'db', rp: 'short', measurement: 'm', seriesKey: 'm', field: 'v' });
  assert.deepEqual(rows.map((r) => r[1]), [...Array(50).keys()]);
  assert.equal(engine.openedDatabase('db')!.shardSet('short').shards.length, 25);
  await engine.close();
});

test('with rejectWritesBeyondRetention, points older than the policy keeps are refused like 1.x', async (t) => {
  const root = await tempDir(t, 'strata-engine-');
  const engine = await Engine.open(
    engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, rejectWritesBeyondRetention: true }),
  );
  await engine.catalog.createDatabase('db');
  await engine.catalog.createRetentionPolicy('db', { name: 'day', durationSec: 86400, replicaN: 1 }, true);
  const fresh = Math.floor(Date.now() / 1000);
  await assert.rejects(engine.write({ db: 'db', precision: 's', body: body(`m v=1 ${fresh - 3 * 86400}\nm v=2 ${fresh}`) }), {
    message: 'partial write: points beyond retention policy dropped=1',
  });
  assert.deepEqual((await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: 'm', field: 'v' })).map((r) => r[1]), [2]);
  await engine.close();
});

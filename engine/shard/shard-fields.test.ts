/**
 * Per-shard field sets (shard-fields.ts) through a real engine: recorded as the caches take
 * values, kept in `fields.json` across a restart (written by the flush, and by the final flush
 * of a close), dropped with their measurement, and rebuilt from the TSM keys for a shard whose
 * files predate the record or whose record is damaged.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MAX_TIME_NS, MIN_TIME_NS } from '../time.js';
import { openTestEngine } from '../testing/open-engine.js';
import type { Engine } from '../engine.js';
import { SHARD_FIELDS_FILE } from './shard-fields.js';

// 2024-03-01 (one weekly shard group) and 2024-03-15 (another).
const WEEK1 = 1_709_251_200n * 1_000_000_000n;
const WEEK3 = 1_710_460_800n * 1_000_000_000n;
const DAY = 86_400n * 1_000_000_000n;

async function write(e: Engine, lines: string): Promise<void> {
  await e.write({ db: 'db', precision: 'ns', body: Buffer.from(lines) });
}

const sorted = (s: ReadonlySet<string> | undefined) => (s ? [...s].sort() : s);

function shardDirs(e: Engine): string[] {
  return e.shardsOverlapping('db', 'autogen', MIN_TIME_NS, MAX_TIME_NS).map((s) => s.dir);
}

test('each shard records the fields its points bring, across a restart', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-shard-fields-'));
  try {
    let e = await openTestEngine(root);
    await e.catalog.createDatabase('db');
    await write(e, `cpu,host=a v=1,s="x" ${WEEK1}\ncpu,host=a v=2,extra=3i ${WEEK3}\nmem,host=a free=1i ${WEEK3}`);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK1, WEEK1 + DAY)), ['s', 'v']);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK3, WEEK3 + DAY)), ['extra', 'v']);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK1, WEEK3 + DAY)), ['extra', 's', 'v']);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'mem', WEEK1, WEEK1 + DAY)), []);
    assert.equal(e.fieldsUniform('db', 'autogen', 'cpu'), false);
    await e.flush();
    await write(e, `cpu,host=b v=3,late=1 ${WEEK1 + 60n}`);
    await e.close();
    e = await openTestEngine(root);
    await e.catalog.createDatabase('db');
    // From fields.json (flushed data) and from the WAL's replay (the late point).
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK1, WEEK1 + DAY)), ['late', 's', 'v']);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK3, WEEK3 + DAY)), ['extra', 'v']);
    // DROP MEASUREMENT takes the measurement's fields out of every shard, also after a restart.
    await e.delete({ db: 'db', measurements: ['mem'], expr: { op: 'true' }, minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: true });
    await e.flush();
    await e.close();
    e = await openTestEngine(root);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'mem', WEEK3, WEEK3 + DAY)), []);
    await e.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a shard with files but no record, or a damaged record, rebuilds its set from its TSM keys and writes it', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-shard-fields-'));
  try {
    let e = await openTestEngine(root);
    await e.catalog.createDatabase('db');
    await write(e, `cpu,host=a v=1,old=1i ${WEEK1}\ncpu,host=b v=1 ${WEEK1}\nc\\,p\\ u,host=a f=1 ${WEEK1}\ncpu,host=a v=2,new="n" ${WEEK3}`);
    await e.flush();
    const [first, second] = shardDirs(e);
    await e.close();
    await unlink(join(first!, SHARD_FIELDS_FILE));
    await writeFile(join(second!, SHARD_FIELDS_FILE), '{"version":1,"measurements":');
    e = await openTestEngine(root);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK1, WEEK1 + DAY)), ['old', 'v']);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'c,p u', WEEK1, WEEK1 + DAY)), ['f']);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK3, WEEK3 + DAY)), ['new', 'v']);
    assert.deepEqual(JSON.parse(await readFile(join(first!, SHARD_FIELDS_FILE), 'utf8')), { version: 1, measurements: { cpu: ['old', 'v'], 'c,p u': ['f'] } });
    // New points are still stored and read, and their fields join the rebuilt set.
    await write(e, `cpu,host=a v=5,late=1 ${WEEK3 + 60n}`);
    assert.deepEqual(sorted(e.fieldsInRange('db', 'autogen', 'cpu', WEEK3, WEEK3 + DAY)), ['late', 'new', 'v']);
    await e.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

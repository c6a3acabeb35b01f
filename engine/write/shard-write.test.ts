/**
 * shard-write.ts: a new field given two types in one batch answers as 1.6.7 does: in a shard
 * that existed the later points of the second type are refused (partial write, with 1.6.7's
 * field and count), in a shard the batch creates (or when the retry meets a second such field)
 * the shard's points fail together (`field type conflict`); the fields created on the way stay.
 * Every answer, stored field and field type here was recorded from InfluxDB 1.6.7 (loopback),
 * with and without parse workers. Then a crash copy replays exactly what was acknowledged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';
import { FIELD_TYPE_NAMES } from '../point.js';
import { LOCK_FILE } from '../fs/lock.js';
import { PartialWriteError } from './partial.js';
import { defer, tempDir } from '../testing/temp-dir.js';

interface Case {
  /** Bodies written first (their answers are not checked). */
  readonly setup: readonly string[];
  readonly body: string;
  /** 1.6.7's error text. */
  readonly error: string;
  /** Field keys with types afterwards, `measurement.field:type`, sorted. */
  readonly fields: readonly string[];
  /** Rows stored afterwards: `measurement.field@ns=value`, sorted. */
  readonly rows: readonly string[];
}

const conflict = (m: string, f: string, written: string, existing: string, dropped: number) =>
  `partial write: field type conflict: input field "${f}" on measurement "${m}" is type ${written}, already exists as type ${existing} dropped=${dropped}`;

const CASES: readonly Case[] = [
  // The body creates the shard: one try only, nothing stored, the first type stays.
  { setup: [], body: 'q s2="a" 7\nq s2=1i 8', error: 'field type conflict', fields: ['q.s2:string'], rows: [] },
  // The shard exists: the retry keeps the first point.
  { setup: ['q v=1 5'], body: 'q s2="a" 7\nq s2=1i 8', error: conflict('q', 's2', 'integer', 'string', 1), fields: ['q.s2:string', 'q.v:float'], rows: ['q.s2@7=a', 'q.v@5=1'] },
  // ... also for a measurement new in that shard.
  { setup: ['q v=1 5'], body: 'r x="a" 10\nr x=1i 11', error: conflict('r', 'x', 'integer', 'string', 1), fields: ['q.v:float', 'r.x:string'], rows: ['q.v@5=1', 'r.x@10=a'] },
  // A key repeated in one line: the line is refused, the first type created.
  { setup: ['q v=1 5'], body: 'q s3="a",s3=1i,s3="b" 12\nq ok=1 13', error: conflict('q', 's3', 'integer', 'string', 1), fields: ['q.ok:float', 'q.s3:string', 'q.v:float'], rows: ['q.ok@13=1', 'q.v@5=1'] },
  // Fields before the repeat are created, those after it are not.
  {
    setup: ['q v=1 5'],
    body: 'q nf3=1i,s4="a",s4=1i,nf5=1i 16\nq s4=2i 17\nq s4="b" 18',
    error: conflict('q', 's4', 'integer', 'string', 2),
    fields: ['q.nf3:integer', 'q.s4:string', 'q.v:float'],
    rows: ['q.s4@18=b', 'q.v@5=1'],
  },
  // The retry runs on the compacted batch: the refused first line is gone, the last one twice.
  { setup: ['q s2="a",v=1 5'], body: 'q s2=1i 9\nq s6="a" 10\nq s6=1i 11', error: conflict('q', 's6', 'integer', 'string', 2), fields: ['q.s2:string', 'q.s6:string', 'q.v:float'], rows: ['q.s2@5=a', 'q.s6@10=a', 'q.v@5=1'] },
  // A second new field of two types fails the retry too.
  {
    setup: ['q s2="a",v=1 5'],
    body: 'q s8="a" 9\nq s8=1i 10\nq s2=1i 11\nq s9="a" 12\nq s9=1i 13',
    error: 'field type conflict',
    fields: ['q.s2:string', 'q.s8:string', 'q.s9:string', 'q.v:float'],
    rows: ['q.s2@5=a', 'q.v@5=1'],
  },
  // A shard created by a failed write exists for the next one.
  { setup: ['q s2="a" 7\nq s2=1i 8'], body: 'q s2=1i 9\nq s5="a" 9\nq s5=1i 10', error: conflict('q', 's5', 'integer', 'string', 2), fields: ['q.s2:string', 'q.s5:string'], rows: ['q.s5@9=a'] },
  // ... and one created by a write whose every line was refused for a `time` tag.
  { setup: ['m,time=1 a=1 5'], body: 'm x="a" 6\nm x=1i 7', error: conflict('m', 'x', 'integer', 'string', 1), fields: ['m.x:string'], rows: ['m.x@6=a'] },
  // Shards are written apart: the new one fails, the existing one keeps its point.
  {
    setup: ['q v=1 5'],
    body: 'q ok=3 21\nq w="a" 1640995200000000000\nq w=1i 1640995200000000001',
    error: 'field type conflict',
    fields: ['q.ok:float', 'q.v:float', 'q.w:string'],
    rows: ['q.ok@21=3', 'q.v@5=1'],
  },
];

async function state(engine: Engine, db: string): Promise<{ fields: string[]; rows: string[] }> {
  const d = await engine.database(db);
  const fields: string[] = [];
  const rows: string[] = [];
  for (const m of d.index.measurementNames()) {
    for (const [f, type] of d.index.measurement(m)!.fields) {
      fields.push(`${m}.${f}:${FIELD_TYPE_NAMES[type]}`);
      for (let id = 0; id < d.index.nextId; id++) {
        const s = d.index.seriesById(id);
        if (s?.measurement !== m) continue;
        for (const [t, v] of await readSeries(engine, { db, measurement: m, seriesKey: s.key, field: f })) rows.push(`${m}.${f}@${t}=${String(v)}`);
      }
    }
  }
  return { fields: fields.sort(), rows: rows.sort() };
}

async function run(parseWorkers: number): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'strata-shard-write-'));
  const options = (dir: string) => engineOptions({ walDir: join(dir, 'wal'), metaDir: join(dir, 'meta'), dataDir: join(dir, 'data'), flushIntervalSec: 0, parseWorkers });
  const engine = await Engine.open(options(root));
  let copy: string | undefined;
  try {
    const live: unknown[] = [];
    for (const [i, c] of CASES.entries()) {
      const db = `db${i}`;
      await engine.catalog.createDatabase(db);
      for (const setup of c.setup) await engine.write({ db, precision: 'ns', body: Buffer.from(setup) }).catch(() => undefined);
      let got: string | null = null;
      try {
        await engine.write({ db, precision: 'ns', body: Buffer.from(c.body) });
      } catch (err) {
        assert.ok(err instanceof PartialWriteError, String(err));
        assert.equal(err.status, 400);
        got = err.message;
      }
      assert.equal(got, c.error, `case ${i}: ${c.body}`);
      const s = await state(engine, db);
      assert.deepEqual(s, { fields: c.fields, rows: c.rows }, `case ${i}: ${c.body}`);
      live.push(s);
    }
    // What a SIGKILL now leaves: replay restores the stored rows and no refused one.
    copy = await mkdtemp(join(tmpdir(), 'strata-shard-write-copy-'));
    await cp(root, copy, { recursive: true, filter: (p) => basename(p) !== LOCK_FILE });
    const again = await Engine.open(options(copy));
    try {
      for (const [i] of CASES.entries()) assert.deepEqual((await state(again, `db${i}`)).rows, (live[i] as { rows: string[] }).rows, `case ${i} after replay`);
    } finally {
      await again.close();
    }
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
    if (copy) await rm(copy, { recursive: true, force: true });
  }
}

test('a new field given two types answers and stores as 1.6.7 (in process)', () => run(0));
test('a new field given two types answers and stores as 1.6.7 (parse workers)', () => run(1));

/*
 * Recorded from 1.6.7 (loopback, 2026-11-27): a fresh database, `q s2="a" 7\nq s2=1i 8` fails
 * whole and creates shard group 1; after a restart SHOW SHARDS still lists it and
 * `q s3="a" 9\nq s3=1i 10` is a write into an existing shard: partial write, dropped=1, s3@9 stored.
 */
test('a shard created by a failed write outlives a restart and a crash, as 1.6.7 keeps its shard group', async (t) => {
  const root = await tempDir(t, 'strata-shard-write-');
  const options = (dir: string) => engineOptions({ walDir: join(dir, 'wal'), metaDir: join(dir, 'meta'), dataDir: join(dir, 'data'), flushIntervalSec: 0 });
  const engine = await Engine.open(options(root));
  defer(t, () => engine.close());
  await engine.catalog.createDatabase('d1');
  await assert.rejects(engine.write({ db: 'd1', precision: 'ns', body: Buffer.from('q s2="a" 7\nq s2=1i 8') }), { message: 'field type conflict' });
  assert.equal(engine.shardsOverlapping('d1', 'autogen', 0n, 10n).length, 1);
  // What a SIGKILL right after the answer leaves, and what a clean stop leaves.
  const crashed = await tempDir(t, 'strata-shard-write-copy-');
  await cp(root, crashed, { recursive: true, filter: (p) => basename(p) !== LOCK_FILE });
  await engine.close();
  for (const dir of [crashed, root]) {
    const again = await Engine.open(options(dir));
    try {
      assert.equal(again.shardsOverlapping('d1', 'autogen', 0n, 10n).length, 1, `${dir}: the shard is gone after the restart`);
      await assert.rejects(again.write({ db: 'd1', precision: 'ns', body: Buffer.from('q s3="a" 9\nq s3=1i 10') }), {
        message: conflict('q', 's3', 'integer', 'string', 1),
      });
      assert.deepEqual(await readSeries(again, { db: 'd1', measurement: 'q', seriesKey: 'q', field: 's3' }), [[9n, 'a']]);
    } finally {
      await again.close();
    }
  }
});

/**
 * Lines 1.x's shard refuses after parsing (a `time` tag, only `time` fields, a field type
 * conflict): the answer names one reason in 1.x's order and counts the refused points, parse
 * errors of the same batch go unreported, and the series 1.x indexes before checking fields
 * stay in the index without data. Texts recorded from InfluxDB 1.6.7 (loopback), with and
 * without parse workers (the worker path hands the refusals over in its batch).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { PartialWriteError } from './partial.js';

/** [setup body or '', body, 1.6.7's error text (null: 204), series keys afterwards] */
const CASES: [string, string, string | null, string[]][] = [
  [
    'x v=1 1',
    'x,t=1 v="s" 2\ny,t=2 time=1 3\nz,time=1 v=1 4',
    'partial write: invalid tag key: input tag "time" on measurement "z" is invalid dropped=3',
    ['x', 'x,t=1', 'y,t=2'],
  ],
  ['', 'a time=1 1\nb bad\nc,time=x v=1 1', 'partial write: invalid tag key: input tag "time" on measurement "c" is invalid dropped=2', ['a']],
  ['m v=1 1', 'zz\nm time=1 4\nm v=4 5', 'partial write: invalid field name: input field "time" on measurement "m" is invalid dropped=1', ['m']],
  [
    'm v=1 1',
    'm v="x" 4\nm v="y" 5',
    'partial write: field type conflict: input field "v" on measurement "m" is type string, already exists as type float dropped=2',
    ['m'],
  ],
  ['', 'x,t=b time=TRUE,a=1 1\nm,t=u time=1 1\ny,t=c time=2,time=3 1', 'partial write: invalid field name: input field "time" on measurement "m" is invalid dropped=2', ['m,t=u', 'x,t=b', 'y,t=c']],
  ['', 'a,k=1 time=1 1', 'partial write: invalid field name: input field "time" on measurement "a" is invalid dropped=1', ['a,k=1']],
  // Fields 1.x files under a name no statement reads (an escaped backslash before a comma in the
  // measurement): no error, the series is indexed under the name 1.x reads from its key.
  ['', 'a\\\\,b,k=1 v=1 1\nm v=2 2', null, ['a\\,b,k=1', 'm']],
  // Such a line is written to 1.x, so a batch with it and a bad line is a partial write.
  ['', 'a\\\\,b v=1 1\nm,=x v=1 1', "partial write: unable to parse 'm,=x v=1 1': missing tag key dropped=1", ['a\\,b']],
  ['', 'a\\\\,b time=1 1\na\\\\ b v=1 1', 'partial write: invalid field name: input field "time" on measurement "a\\,b" is invalid dropped=1', ['a\\ b', 'a\\,b']],
];

async function run(parseWorkers: number): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'strata-refusals-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, parseWorkers }));
  try {
    for (const [i, [setup, body, error, series]] of CASES.entries()) {
      const db = `db${i}`;
      await engine.catalog.createDatabase(db);
      if (setup) await engine.write({ db, precision: 'ns', body: Buffer.from(setup) });
      let got: string | null = null;
      try {
        await engine.write({ db, precision: 'ns', body: Buffer.from(body) });
      } catch (err) {
        assert.ok(err instanceof PartialWriteError, String(err));
        assert.equal(err.status, 400);
        got = err.message;
      }
      assert.equal(got, error, `case ${i}: ${body}`);
      const index = (await engine.database(db)).index;
      const keys: string[] = [];
      for (let id = 0; id < index.nextId; id++) {
        const s = index.seriesById(id);
        if (s) keys.push(s.key);
      }
      assert.deepEqual(keys.sort(), series, `case ${i}: series`);
    }
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

test('refused lines answer as 1.6.7 and leave their series indexed (in process)', () => run(0));
test('refused lines answer as 1.6.7 and leave their series indexed (parse workers)', () => run(1));

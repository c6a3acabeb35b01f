/**
 * Lines 1.x's shard refuses after parsing (a `time` tag, only `time` fields, a field type
 * conflict) and lines whose fields no statement reads: the answer names one reason in 1.x's
 * order and counts the refused points, parse errors of the same batch go unreported, and the
 * series 1.x indexes before checking fields stay in the index without data. Those series meet
 * the cardinality limits and the retention cut-off as any other line. Texts recorded from
 * InfluxDB 1.6.7 (loopback; `max-values-per-tag = 2` for LIMITS, a policy of 1h for
 * RETENTION), each body written alone and read back with SHOW SERIES, with and without parse
 * workers (the worker path hands the refusals over in its batch). 1.6.7 answers 400 where a
 * rejection is a limit; Strata 422 when every rejection is one (decisions.md).
 *
 * 1.x counts a line's new tag values under the line's own name, which for a line whose fields
 * no statement reads is not the measurement its series is listed under: `a\\,b` is listed
 * `a,b` but counted under the listed measurement `a\,b` (written `a\\\,b`).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { openTestEngine } from '../testing/open-engine.js';
import { defer, tempDir } from '../testing/temp-dir.js';
import { PartialWriteError } from './partial.js';

/** [bodies written one after another, each with 1.6.7's error (null: 204) and Strata's status (400 unless given)], then the series keys. */
type Case = [[string, string | null, number?][], string[]];

const CASES: Case[] = [
  [
    [
      ['x v=1 1', null],
      ['x,t=1 v="s" 2\ny,t=2 time=1 3\nz,time=1 v=1 4', 'partial write: invalid tag key: input tag "time" on measurement "z" is invalid dropped=3'],
    ],
    ['x', 'x,t=1', 'y,t=2'],
  ],
  [[['a time=1 1\nb bad\nc,time=x v=1 1', 'partial write: invalid tag key: input tag "time" on measurement "c" is invalid dropped=2']], ['a']],
  [
    [
      ['m v=1 1', null],
      ['zz\nm time=1 4\nm v=4 5', 'partial write: invalid field name: input field "time" on measurement "m" is invalid dropped=1'],
    ],
    ['m'],
  ],
  [
    [
      ['m v=1 1', null],
      ['m v="x" 4\nm v="y" 5', 'partial write: field type conflict: input field "v" on measurement "m" is type string, already exists as type float dropped=2'],
    ],
    ['m'],
  ],
  [
    [['x,t=b time=TRUE,a=1 1\nm,t=u time=1 1\ny,t=c time=2,time=3 1', 'partial write: invalid field name: input field "time" on measurement "m" is invalid dropped=2']],
    ['m,t=u', 'x,t=b', 'y,t=c'],
  ],
  [[['a,k=1 time=1 1', 'partial write: invalid field name: input field "time" on measurement "a" is invalid dropped=1']], ['a,k=1']],
  // Fields 1.x files under a name no statement reads (an escaped backslash before a comma in the
  // measurement): no error, the series is indexed under the name 1.x reads from its key.
  [[['a\\\\,b,k=1 v=1 1\nm v=2 2', null]], ['a\\,b,k=1', 'm']],
  // Such a line is written to 1.x, so a batch with it and a bad line is a partial write.
  [[['a\\\\,b v=1 1\nm,=x v=1 1', "partial write: unable to parse 'm,=x v=1 1': missing tag key dropped=1"]], ['a\\,b']],
  [[['a\\\\,b time=1 1\na\\\\ b v=1 1', 'partial write: invalid field name: input field "time" on measurement "a\\,b" is invalid dropped=1']], ['a\\ b', 'a\\,b']],
];

const LIMITS: Case[] = [
  // An unlisted line passes whatever its listed measurement holds, and counts there.
  [
    [
      ['a\\\\,b,t=1 v=1 1\na\\\\,b,t=2 v=1 1', null],
      ['a\\\\,b,t=3 v=1 1', null],
      ['a\\,b,t=4 v=1 1', 'partial write: max-values-per-tag limit exceeded (3/2): measurement="a,b" tag="t" value="4" dropped=1', 422],
    ],
    ['a\\,b,t=1', 'a\\,b,t=2', 'a\\,b,t=3'],
  ],
  // ... and is refused by the listed measurement of its own name.
  [
    [
      ['a\\\\\\,b,t=1 v=1 1\na\\\\\\,b,t=2 v=1 1', null],
      ['a\\\\,b,t=9 v=1 1', 'partial write: max-values-per-tag limit exceeded (2/2): measurement="a\\\\,b" tag="t" value="9" dropped=1', 422],
      ['a\\\\,b,t=1 v=1 1', null],
      ['a\\\\\\,b,t=3 v=1 1', null],
    ],
    ['a\\,b,t=1', 'a\\\\,b,t=1', 'a\\\\,b,t=2', 'a\\\\,b,t=3'],
  ],
  // A line of only `time` fields whose series a limit refuses is dropped twice over.
  [
    [
      ['m,t=1 v=1 1\nm,t=2 v=1 1', null],
      ['m,t=3 time=1 1', 'partial write: max-values-per-tag limit exceeded (2/2): measurement="m" tag="t" value="3" dropped=2', 400],
      ['m,t=4 v=1 1\nm,t=5 time=1 1', 'partial write: max-values-per-tag limit exceeded (2/2): measurement="m" tag="t" value="4" dropped=3', 400],
    ],
    ['m,t=1', 'm,t=2'],
  ],
  // A limit refuses a new series before its point's field types are checked (1.x creates series first).
  [
    [
      ['m,t=1 v=1 1\nm,t=2 v=1 1', null],
      ['m,t=3 v="s" 1', 'partial write: max-values-per-tag limit exceeded (2/2): measurement="m" tag="t" value="3" dropped=1', 422],
      ['m,t=4 v="s" 1\nm,t=1 v="s" 1', 'partial write: max-values-per-tag limit exceeded (2/2): measurement="m" tag="t" value="4" dropped=2', 400],
    ],
    ['m,t=1', 'm,t=2'],
  ],
  // Names, keys and values are quoted as Go's %q does.
  [
    [
      ['a\\"b,t=1 v=1 1\na\\"b,t=2 v=1 1\na\\\\b,t=1 v=1 1\na\\\\b,t=2 v=1 1', null],
      ['a\\"b,t=3 v=1 1', 'partial write: max-values-per-tag limit exceeded (2/2): measurement="a\\"b" tag="t" value="3" dropped=1', 422],
      ['a\\\\b,t="3 v=1 1', 'partial write: max-values-per-tag limit exceeded (2/2): measurement="a\\\\\\\\b" tag="t" value="\\"3" dropped=1', 422],
    ],
    ['a"b,t=1', 'a"b,t=2', 'a\\\\b,t=1', 'a\\\\b,t=2'],
  ],
  // Strata's own measurement limit (2 here; 1.x has none) counts the measurement such a line lists.
  [
    [
      ['m v=1 1\nn v=1 1', null],
      ['a\\\\,b v=1 1', 'partial write: max-measurements-per-database limit exceeded (2/2): measurement="a,b" dropped=1', 422],
      ['m,t=1 time=1 1\no,t=1 time=1 1', 'partial write: max-measurements-per-database limit exceeded (2/2): measurement="o" dropped=3', 400],
    ],
    ['m', 'm,t=1', 'n'],
  ],
];

/** Written into a policy of 1h: every line at 1 (ns) is beyond it, lines without a time are not. */
const RETENTION: Case[] = [
  [[['a\\\\,b,t=1 v=1 1', 'partial write: points beyond retention policy dropped=1', 400]], []],
  [[['a\\\\,b,t=2 v=1 1\na\\\\,b,t=3 v=1\nm v=1 1', 'partial write: points beyond retention policy dropped=2', 400]], ['a\\,b,t=3']],
  [[['m,t=4 time=1 1\nm,time=5 v=1 1\nm,t=6 time=1', 'partial write: invalid field name: input field "time" on measurement "m" is invalid dropped=1', 400]], ['m,t=6']],
  [[['a\\\\,b,t=12 v=1 1\nm bad', 'partial write: points beyond retention policy dropped=1', 400]], []],
  [[['m,time=7 v=1 1\nm,t=8 time=1 1', 'partial write: points beyond retention policy dropped=2', 400]], []],
];

async function run(t: TestContext, cases: Case[], parseWorkers: number, retention: boolean): Promise<void> {
  const root = await tempDir(t, 'strata-refusals-');
  const engine = await openTestEngine(root, {}, {
    parseWorkers,
    rejectWritesBeyondRetention: retention,
    cardinality: { maxTagValuesPerMeasurement: cases === LIMITS ? 2 : 0, maxMeasurementsPerDatabase: cases === LIMITS ? 2 : 0 },
  });
  defer(t, () => engine.close());
  for (const [i, [writes, series]] of cases.entries()) {
    const db = `db${i}`;
    await engine.catalog.createDatabase(db);
    if (retention) await engine.catalog.createRetentionPolicy(db, { name: 'h', durationSec: 3600, replicaN: 1 }, true);
    for (const [body, error, status = 400] of writes) {
      let got: string | null = null;
      try {
        await engine.write({ db, precision: 'ns', body: Buffer.from(body) });
      } catch (err) {
        assert.ok(err instanceof PartialWriteError, String(err));
        assert.equal(err.status, status, `case ${i}: ${body}: status`);
        got = err.message;
      }
      assert.equal(got, error, `case ${i}: ${body}`);
    }
    const index = (await engine.database(db)).index;
    const keys: string[] = [];
    for (let id = 0; id < index.nextId; id++) {
      const s = index.seriesById(id);
      if (s) keys.push(s.key);
    }
    assert.deepEqual(keys.sort(), series, `case ${i}: series`);
  }
}

for (const [name, parseWorkers] of [['in process', 0], ['parse workers', 1]] as const) {
  test(`refused lines answer as 1.6.7 and leave their series indexed (${name})`, (t) => run(t, CASES, parseWorkers, false));
  test(`refused lines meet the tag-value limit as 1.6.7 counts it (${name})`, (t) => run(t, LIMITS, parseWorkers, false));
  test(`refused lines beyond the retention policy are refused for that alone (${name})`, (t) => run(t, RETENTION, parseWorkers, true));
}

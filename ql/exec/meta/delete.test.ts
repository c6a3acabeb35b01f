/**
 * DELETE / DROP SERIES / DROP MEASUREMENT: rows hidden (read back through engine cursors),
 * series leaving the index as in 1.x, error texts.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { Engine } from '../../../engine/index.js';
import { openTestEngine, run, series1, write, type TestEngine } from './test-support.js';

const DATA = [
  'm,host=a,region=east v=1,s="x" 1000000000',
  'm,host=a,region=east v=2,s="y" 2000000000',
  'm,host=b,region=west v=3,s="z" 3000000000',
  'm,host=b,region=west v=4,s="w" 4000000000',
  'other,host=a v=10i 1500000000',
  'other,host=c v=20i 2500000000',
].join('\n');

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
  await run(t.engine, 'CREATE DATABASE d');
  await write(t.engine, 'd', DATA);
});
afterEach(async () => t.close());

/** Times (s) of one series-field, through the engine's read path. */
async function times(engine: Engine, measurement: string, seriesKey: string, field = 'v'): Promise<number[]> {
  const c = engine.cursor({ db: 'd', rp: 'autogen', measurement, seriesKey, field, startNs: -1n, endNs: 100_000_000_000n, ascending: true });
  const out: number[] = [];
  for (let b = await c.next(); b; b = await c.next()) for (const off of b.offsets) out.push(Number(b.base + BigInt(off)) / 1e9);
  c.close();
  return out;
}

const keys = (...k: string[]) => [{ columns: ['key'], values: k.map((x) => [x]) }];
const exec = (text: string, db = 'd') => run(t.engine, text, { db, nowNs: 10_000_000_000_000_000_000n / 10_000n });

test('DELETE with a time range keeps the series that still have data', async () => {
  assert.deepEqual(await exec("DELETE FROM m WHERE time < '1970-01-01T00:00:02.5Z'; SHOW SERIES"), [
    {},
    { series: keys('m,host=b,region=west', 'other,host=a', 'other,host=c') },
  ]);
  assert.deepEqual(await times(t.engine, 'm', 'm,host=b,region=west'), [3, 4]);
  assert.deepEqual(await times(t.engine, 'other', 'other,host=a'), [1.5]);
  assert.deepEqual(await exec("DELETE FROM m WHERE time < '1970-01-01T00:00:03.5Z' AND host = 'b'; SHOW SERIES"), [
    {},
    { series: keys('m,host=b,region=west', 'other,host=a', 'other,host=c') },
  ]);
  assert.deepEqual(await times(t.engine, 'm', 'm,host=b,region=west'), [4]);
  assert.deepEqual(await times(t.engine, 'm', 'm,host=b,region=west', 's'), [4]);
});

test('DELETE by tag drops the series; regex FROM; DELETE WHERE over every measurement', async () => {
  assert.deepEqual(await exec("DELETE FROM m WHERE host = 'a'; SHOW SERIES"), [{}, { series: keys('m,host=b,region=west', 'other,host=a', 'other,host=c') }]);
  assert.deepEqual(await times(t.engine, 'm', 'm,host=a,region=east'), []);
  assert.deepEqual(await exec('DELETE FROM /o.*/ WHERE host =~ /c/; SHOW SERIES'), [{}, { series: keys('m,host=b,region=west', 'other,host=a') }]);
  assert.deepEqual(await exec("DELETE WHERE host = 'b' OR host = 'a'; SHOW SERIES"), [{}, {}]);
});

test('points written after a delete stay visible', async () => {
  await exec('DELETE FROM m');
  await write(t.engine, 'd', 'm,host=a,region=east v=9 1000000000');
  assert.deepEqual(await times(t.engine, 'm', 'm,host=a,region=east'), [1]);
  assert.deepEqual(await series1(t.engine, 'SHOW SERIES FROM m', { db: 'd' }), keys('m,host=a,region=east'));
});

test('DROP SERIES and DROP MEASUREMENT', async () => {
  assert.deepEqual(await exec("DROP SERIES WHERE host = 'a'; SHOW SERIES"), [{}, { series: keys('m,host=b,region=west', 'other,host=c') }]);
  assert.deepEqual(await times(t.engine, 'other', 'other,host=a'), []);
  assert.deepEqual(await exec('DROP SERIES FROM other; SHOW MEASUREMENTS'), [{}, { series: [{ name: 'measurements', columns: ['name'], values: [['m']] }] }]);
  assert.deepEqual(await exec('DROP MEASUREMENT m; SHOW MEASUREMENTS; SHOW FIELD KEYS'), [{}, {}, {}]);
  assert.deepEqual(await times(t.engine, 'm', 'm,host=b,region=west'), []);
});

test('no-ops and errors', async () => {
  for (const q of ['DELETE FROM nope', "DELETE FROM nope WHERE host='x'", 'DROP MEASUREMENT nope', 'DROP SERIES FROM nope', 'DELETE FROM m WHERE time > now()', "DELETE FROM m WHERE time > '1970-01-01T00:00:05Z' AND time < '1970-01-01T00:00:01Z'"]) {
    assert.deepEqual(await exec(q), [{}], q);
  }
  assert.deepEqual(await series1(t.engine, 'SHOW SERIES', { db: 'd' }), keys('m,host=a,region=east', 'm,host=b,region=west', 'other,host=a', 'other,host=c'));
  const e = async (q: string, db = 'd') => (await exec(q, db))[0]?.error;
  assert.equal(await e('DELETE FROM m WHERE v > 1'), 'fields not supported in WHERE clause during deletion');
  assert.equal(await e("DELETE FROM m WHERE s = 'x'"), 'fields not supported in WHERE clause during deletion');
  assert.equal(await e("DROP SERIES FROM m WHERE v = 'x'"), 'fields not supported in WHERE clause during deletion');
  assert.equal(await e("DELETE FROM m WHERE host = 'a' OR v > 1"), 'fields not supported in WHERE clause during deletion');
  // An ordering comparison on a key that is not a tag filters data in 1.6.7 too.
  assert.equal(await e("DELETE FROM other WHERE host = 'c' AND nokey > 1"), 'fields not supported in WHERE clause during deletion');
  // As 1.6.7: a field comparison is refused only when the tag comparisons leave series under
  // it; otherwise nothing matches and nothing happens.
  for (const q of ["DELETE FROM m WHERE host = 'zz' AND v > 1", "DELETE FROM m WHERE v > 1 AND host = 'zz' AND time > 0", "DROP SERIES FROM m WHERE host = 'zz' AND v = 'x'", 'DELETE FROM nope WHERE v > 1', "DELETE FROM other WHERE host = 'zz' AND nokey > 1"]) {
    assert.deepEqual(await exec(q), [{}], q);
  }
  assert.equal(await e('DROP SERIES FROM m WHERE time > 0'), "DROP SERIES doesn't support time in WHERE clause");
  assert.match(String(await e("DELETE FROM m WHERE host = 'a' AND time > 1s OR host = 'b'")), /time conditions/);
  assert.match(String(await e('DELETE FROM m WHERE time != 1s')), /time conditions/);
  assert.deepEqual(await exec('DELETE FROM m WHERE host = 1'), [{}]);
  assert.equal(await e('DELETE FROM m', ''), 'database not found: ');
  assert.equal(await e('DELETE FROM m', 'nope'), 'database not found: nope');
  assert.equal(await e('DROP MEASUREMENT m', 'nope'), 'database not found: nope');
  assert.equal(await times(t.engine, 'm', 'm,host=a,region=east').then((x) => x.length), 2);
});

/**
 * first()/last() in an inner statement grouping by tags the outer one does not
 * (tag-set-edge-heap.ts), through a real engine. Expected picks were answered by 1.6.7 for
 * the same points (cases s-k300-s-k303); each comment says how 1.x's heap reaches them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';
import { withDbEngine } from './test-support.js';

// Six series at t=1000s, five again at t=2000s (g=c's latest is at 1500s).
const POINTS = [
  'm,g=a,h=h1 v=1,i=10i 1000',
  'm,g=a,h=h2 v=5,i=50i 1000',
  'm,g=a,h=h3 v=3,i=30i 1000',
  'm,g=b,h=h4 v=2,i=20i 1000',
  'm,g=b,h=h5 v=9,i=90i 1000',
  'm,g=c,h=h6 v=4,i=40i 1000',
  'm,g=a,h=h1 v=11,i=11i 2000',
  'm,g=a,h=h2 v=7,i=70i 2000',
  'm,g=a,h=h3 v=13,i=13i 2000',
  'm,g=b,h=h4 v=6,i=60i 2000',
  'm,g=b,h=h5 v=8,i=80i 2000',
  'm,g=c,h=h6 v=12,i=12i 1500',
].join('\n');

/** Per statement, `group=value` for each row (or each series' first row). */
async function picks(engine: Parameters<Parameters<typeof withDbEngine>[1]>[0], q: string): Promise<string[]> {
  const results = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
  return results.map((r) => {
    assert.equal(r.error, undefined, String(r.error));
    return (r.series ?? [])
      .flatMap((s) => s.values.map((row) => `${s.tags ? Object.values(s.tags).join(',') : row[1]}=${String(row[row.length - 1])}`))
      .join(' ');
  });
}

test('an inner GROUP BY the outer statement lacks: the first point of each group run of one heap over all series', async () => {
  await withDbEngine('strata-tagset-edge-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(POINTS) });
    const got = await picks(
      engine,
      'SELECT * FROM (SELECT last(v) AS x FROM m GROUP BY g); SELECT * FROM (SELECT first(v) AS x FROM m GROUP BY g); ' +
        'SELECT * FROM (SELECT last(i) AS x FROM m GROUP BY g); SELECT max(x) FROM (SELECT last(v) AS x FROM m GROUP BY g)',
    );
    // last(): series newest first in reverse key order h6..h1; the heap pops h5 (b), then h1 (a)
    // before h2 and h3 at the same time, so a answers 11 (the statement alone: 13, the larger).
    assert.deepEqual(got, ['a=11 b=8 c=12', 'a=5 b=2 c=4', 'a=11 b=80 c=12', '12=12']);
    // The same statements at the top level keep the larger value of the tied pair (firstlast.ts).
    assert.deepEqual(await picks(engine, 'SELECT last(v) FROM m GROUP BY g; SELECT first(v) FROM m GROUP BY g'), ['a=13 b=8 c=12', 'a=3 b=9 c=4']);
  });
});

test('the outer statement grouping by the same tags keeps the per-group rule; a WHERE on a field filters before the cut', async () => {
  await withDbEngine('strata-tagset-edge-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(POINTS) });
    const got = await picks(
      engine,
      'SELECT * FROM (SELECT last(v) AS x FROM m GROUP BY g) GROUP BY g; ' +
        'SELECT * FROM (SELECT last(v) AS x FROM m WHERE v < 12 GROUP BY g); SELECT * FROM (SELECT first(v) AS x FROM m WHERE v < 12 GROUP BY g)',
    );
    assert.deepEqual(got, ['a=13 b=8 c=12', 'a=11 b=8 c=4', 'a=5 b=9 c=4']);
  });
});

test('each shard runs its own heap', async () => {
  await withDbEngine('strata-tagset-edge-', async (engine) => {
    // 2024-03-11 is a Monday: a shard group boundary; points on both sides (seed of s-k303).
    const b = 1_710_115_200;
    const lines = [
      ['a', 'h0', 95, -2], ['b', 'h1', 32, -1], ['c', 'h2', 49, -1], ['c', 'h2', 70, 1], ['a', 'h3', 24, -1], ['a', 'h3', 99, 0], ['a', 'h3', 50, 2],
      ['b', 'h4', 1, -1], ['b', 'h4', 1, 1], ['b', 'h4', 27, 2], ['c', 'h5', 22, 2], ['a', 'h6', 89, -1], ['a', 'h6', 26, 0], ['a', 'h6', 50, 2],
      ['b', 'h7', 43, -2], ['b', 'h7', 39, 0], ['b', 'h7', 78, 2], ['c', 'h8', 62, -2], ['c', 'h8', 90, 1],
    ].map(([g, h, v, hr]) => `n,g=${g},h=${h} v=${v} ${b + 3600 * Number(hr)}`);
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(lines.join('\n')) });
    const got = await picks(
      engine,
      "SELECT * FROM (SELECT last(v) AS x FROM n GROUP BY g); SELECT * FROM (SELECT first(v) AS x FROM n WHERE time > '2024-03-10T22:30:00Z' GROUP BY g)",
    );
    assert.deepEqual(got, ['a=50 b=78 c=22', 'a=89 b=1 c=49']);
  });
});

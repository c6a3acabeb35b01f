/**
 * Aggregates answered from block statistics (batch-stats.ts) must equal the answers from
 * decoded values. The comparison query adds a row filter that is always true, which forces
 * the row-by-row path (every value decoded). Data: random integer and float fields in small
 * blocks over two TSM files that overlap, points still in the cache, and a DELETE; windows
 * both finer and coarser than a block. The test also checks that stats batches were served,
 * so it fails if the stats path were never taken.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';
import { tempDir } from '../../engine/testing/temp-dir.js';

const T0 = 1_700_000_000; // seconds
const STEP = 10;
const N = 3000;
const HOSTS = ['a', 'b', 'c'];

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function lines(from: number, to: number, rand: () => number): Buffer {
  const out: string[] = [];
  for (let k = from; k < to; k++) {
    for (const h of HOSTS) {
      const i = Math.round((rand() - 0.5) * 2_000_000);
      const f = Math.round((rand() - 0.5) * 2e6) / 64; // exact in binary: float sums stay order-free
      out.push(`m,host=${h} i=${i}i,f=${f} ${T0 + k * STEP}`);
    }
  }
  return Buffer.from(out.join('\n'));
}

test('count/sum/min/max/mean from block stats equal the decoded answers', async (t) => {
  const root = await tempDir(t, 'strata-batch-stats-');
  const engine = await Engine.open(
    engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0, maxPointsPerBlock: 100 }),
  );
  try {
    await engine.catalog.createDatabase('db');
    const rand = rng(42);
    await engine.write({ db: 'db', precision: 's', body: lines(0, N, rand) });
    await engine.flush();
    await engine.write({ db: 'db', precision: 's', body: lines(2450, 2600, rand) }); // overlaps (and overwrites) file 1
    await engine.flush();
    await engine.write({ db: 'db', precision: 's', body: lines(100, 130, rand) }); // cache over file blocks
    const run = async (q: string) =>
      JSON.stringify(await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n }), (_k, v: unknown) =>
        typeof v === 'bigint' ? String(v) : v,
      );
    const at = (k: number) => `${BigInt(T0 + k * STEP) * 1_000_000_000n}`;
    await engine.delete({
      db: 'db',
      measurements: ['m'],
      expr: { op: 'eq', key: 'host', value: 'b' },
      minNs: BigInt(at(1500)),
      maxNs: BigInt(at(1510)),
      dropSeries: false,
    });

    const range = `time >= ${at(0)} AND time < ${at(N)}`;
    const calls = ['count(i)', 'sum(i)', 'min(i)', 'max(i)', 'mean(i)', 'count(f)', 'sum(f)', 'min(f)', 'max(f)', 'mean(f)'];
    const groupings = ['', 'GROUP BY host', 'GROUP BY time(10m)', 'GROUP BY time(1h), host', 'GROUP BY time(4h)', 'GROUP BY time(1d)'];
    let compared = 0;
    for (const c of [...calls, calls.slice(0, 5).join(', ')]) {
      for (const g of groupings) {
        const fast = `SELECT ${c} FROM m WHERE ${range} ${g}`;
        const decoded = `SELECT ${c} FROM m WHERE ${range} AND i > -100000000 ${g}`;
        const answer = await run(fast);
        assert.equal(answer, await run(decoded), fast);
        assert.doesNotMatch(answer, /error/, fast);
        compared++;
      }
    }
    assert.equal(compared, 66);

    // The stats path was really available: whole blocks of the files come with stats.
    const cursor = engine.cursor({
      db: 'db',
      rp: 'autogen',
      measurement: 'm',
      seriesKey: 'm,host=b',
      field: 'i',
      startNs: BigInt(at(0)),
      endNs: BigInt(at(N)),
      ascending: true,
    });
    let withStats = 0;
    let rows = 0;
    for (let b = await cursor.next(); b; b = await cursor.next()) {
      if (b.stats) {
        withStats++;
        assert.equal(b.offsets.length, b.stats.count);
        const v = b.column.values as Float64Array;
        assert.deepEqual([b.stats.min, b.stats.max, b.stats.sum], [Math.min(...v), Math.max(...v), v.reduce((s, x) => s + x, 0)]);
        assert.equal(v[b.stats.minRow!], b.stats.min);
      }
      rows += b.offsets.length;
    }
    cursor.close();
    assert.equal(rows, N - 11);
    // 30 blocks of 100 rows: the ones under the cache rows, the overwrite and the delete are decoded.
    assert.ok(withStats >= 20 && withStats <= 27, `stats batches: ${withStats}`);
  } finally {
    await engine.close();
  }
});

/**
 * End to end through the engine: a cursor that started on cached rows keeps reading exactly
 * those rows while the snapshot it read is flushed, released and its memory handed to new
 * caches that new writes fill (column-arena.ts recycles only after the cursor closed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTestEngine } from '../testing/open-engine.js';
import { readSeries } from '../testing/read-all.js';
import { pooledSlabs, trimColumnPool } from './column-arena.js';

const SEC = 1_700_000_000;

function body(from: number, n: number, value: (i: number) => number, hosts = ['a']): Buffer {
  const lines = [];
  for (const h of hosts) for (let i = from; i < from + n; i++) lines.push(`m,host=${h} v=${value(i)} ${SEC + i}`);
  return Buffer.from(lines.join('\n'));
}

/** Enough rows over enough series to fill every byte of a reused slab (no entry outgrows a slab). */
const OTHER_HOSTS = Array.from({ length: 24 }, (_, i) => `h${i}`);

test('a cursor over a snapshot reads its rows unchanged while the snapshot is flushed and its memory reused', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-pinned-read-'));
  const engine = await openTestEngine(root);
  try {
    trimColumnPool();
    await engine.catalog.createDatabase('db');
    const N = 20_000;
    await engine.write({ db: 'db', precision: 's', body: body(0, N, (i) => i) });
    const rp = engine.catalog.resolveRetentionPolicy('db', undefined).name;
    const cursor = engine.cursor({ db: 'db', rp, measurement: 'm', seriesKey: 'm,host=a', field: 'v', startNs: 0n, endNs: BigInt(SEC + 10 * N) * 1_000_000_000n, ascending: true });
    const seen: number[] = [];
    const first = await cursor.next();
    assert.ok(first);
    const firstValues = first.column.values as Float64Array;
    seen.push(...firstValues);
    // The cache the cursor reads is frozen, written to TSM and released; new writes go to new caches.
    await engine.flush();
    for (let round = 1; round <= 3; round++) {
      await engine.write({ db: 'db', precision: 's', body: body(round * N, 4000, () => -round, OTHER_HOSTS) });
      await engine.flush();
    }
    for (let b = await cursor.next(); b; b = await cursor.next()) {
      for (let i = 0; i < b.offsets.length; i++) {
        const t = Number(b.base / 1_000_000_000n) + b.offsets[i]! / 1e9;
        if (t >= SEC + N) break;
        seen.push((b.column.values as Float64Array)[i]!);
      }
    }
    const pooled = pooledSlabs();
    cursor.close();
    assert.equal(seen.length, N);
    seen.forEach((v, i) => assert.equal(v, i, `row ${i}`));
    assert.equal(pooledSlabs(), pooled + 1, 'closing the cursor released the snapshot memory to the pool');
    // And the data is all there through a fresh read.
    const all = await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: 'm,host=a', field: 'v' });
    assert.equal(all.length, N);
    assert.equal(all[N - 1]![1], N - 1);
    const other = await readSeries(engine, { db: 'db', measurement: 'm', seriesKey: 'm,host=h7', field: 'v' });
    assert.equal(other.length, 3 * 4000);
    assert.equal(other[3 * 4000 - 1]![1], -3);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
    trimColumnPool();
  }
});

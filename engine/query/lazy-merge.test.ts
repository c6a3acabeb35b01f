/**
 * The lazy merge through the real engine: random overlapping writes spread over several TSM
 * files and the cache, random deletes (tombstones over files and cache), read back through
 * cursors in both directions, fully and stopping early, must equal a last-write-wins model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';

const SEC = 1_000_000_000n;

async function readFirst(engine: Engine, ascending: boolean, limit: number, startNs = 0n, endNs = 100_000n * SEC): Promise<[bigint, unknown][]> {
  const cursor = engine.cursor({ db: 'db', rp: 'autogen', measurement: 'm', seriesKey: 'm,host=a', field: 'v', startNs, endNs, ascending });
  const out: [bigint, unknown][] = [];
  try {
    for (let b = await cursor.next(); b && out.length < limit; b = await cursor.next()) {
      for (let i = 0; i < b.offsets.length; i++) out.push([b.base + BigInt(b.offsets[i]!), b.column.values[i]]);
    }
  } finally {
    cursor.close();
  }
  return out.slice(0, limit);
}

const step = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), from: fc.integer({ min: 0, max: 5000 }), n: fc.integer({ min: 1, max: 1500 }), stride: fc.integer({ min: 1, max: 7 }), flush: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), from: fc.integer({ min: 0, max: 9000 }), len: fc.integer({ min: 0, max: 800 }) }),
);

test('cursors over files + cache + tombstones equal the model, both directions, with and without a limit', async () => {
  let version = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 0, max: 9000 }), fc.integer({ min: 0, max: 9000 }), async (steps, limit, a, b) => {
      const root = await mkdtemp(join(tmpdir(), 'strata-lazy-merge-'));
      const engine = await Engine.open(engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 }));
      try {
        await engine.catalog.createDatabase('db');
        const model = new Map<bigint, number>();
        for (const s of steps) {
          if (s.kind === 'write') {
            const lines: string[] = [];
            version++;
            for (let k = 0; k < s.n; k++) {
              const t = BigInt(s.from + k * s.stride);
              lines.push(`m,host=a v=${version}i ${t}`);
              model.set(t * SEC, version);
            }
            await engine.write({ db: 'db', precision: 's', body: Buffer.from(lines.join('\n')) });
            if (s.flush) await engine.flush();
          } else {
            const lo = BigInt(s.from) * SEC;
            const hi = BigInt(s.from + s.len) * SEC;
            await engine.delete({ db: 'db', measurements: ['m'], expr: { op: 'eq', key: 'host', value: 'a' }, minNs: lo, maxNs: hi, dropSeries: false });
            for (const t of [...model.keys()]) if (t >= lo && t <= hi) model.delete(t);
          }
        }
        for (const ascending of [true, false]) {
          const all = [...model.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1) * (ascending ? 1 : -1));
          assert.deepEqual(await readFirst(engine, ascending, Infinity), all);
          assert.deepEqual(await readFirst(engine, ascending, limit), all.slice(0, limit));
          const [lo, hi] = [BigInt(Math.min(a, b)) * SEC, BigInt(Math.max(a, b)) * SEC];
          const inRange = all.filter(([t]) => t >= lo && t <= hi);
          assert.deepEqual(await readFirst(engine, ascending, limit, lo, hi), inRange.slice(0, limit));
        }
      } finally {
        await engine.close();
        await rm(root, { recursive: true, force: true });
      }
    }),
    { numRuns: 25 },
  );
});

test('a point overwritten in the cache wins over its flushed value when an older file lacks the series', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-cache-priority-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 }));
  try {
    await engine.catalog.createDatabase('db');
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('m,host=b v=1i 10') });
    await engine.flush(); // file 0 lacks host=a
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('m,host=a v=1i 10') });
    await engine.flush(); // file 1: host=a, priority 1 with a gap below
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('m,host=a v=2i 10') }); // cache
    for (const ascending of [true, false]) assert.deepEqual(await readFirst(engine, ascending, Infinity), [[10n * SEC, 2]]);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

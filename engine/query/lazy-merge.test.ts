/**
 * The lazy merge through the real engine: random overlapping writes spread over several TSM
 * files and the cache, random deletes (tombstones over files and cache), read back through
 * cursors in both directions, fully and stopping early, must equal a last-write-wins model,
 * whether the batches are taken with next(), nextNow() or both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { nextBatch, type Batch } from './cursor.js';

const SEC = 1_000_000_000n;

/**
 * How a reader takes batches: next() alone; nextNow() first (nextBatch); or either at random.
 * The three must see the same batches (cut, stats, rows): nextNow is next() without waiting.
 */
type ReadMode = 'next' | 'now' | 'mixed';

interface Read {
  readonly rows: [bigint, unknown][];
  /** Per batch: its row count and whether it came with stats. */
  readonly batches: string[];
  /** Calls that nextNow answered, of `takes`. */
  readonly now: number;
  readonly takes: number;
}

async function read(engine: Engine, ascending: boolean, limit: number, startNs: bigint, endNs: bigint, mode: ReadMode): Promise<Read> {
  const cursor = engine.cursor({ db: 'db', rp: 'autogen', measurement: 'm', seriesKey: 'm,host=a', field: 'v', startNs, endNs, ascending });
  const rows: [bigint, unknown][] = [];
  const batches: string[] = [];
  let now = 0;
  let takes = 0;
  const take = async (): Promise<Batch | null> => {
    takes++;
    if (mode === 'next' || (mode === 'mixed' && Math.random() < 0.5)) return cursor.next();
    const b = nextBatch(cursor);
    if (b instanceof Promise) return b;
    now++;
    return b;
  };
  try {
    for (let b = await take(); b && rows.length < limit; b = await take()) {
      batches.push(`${b.offsets.length}${b.stats ? 's' : ''}`);
      for (let i = 0; i < b.offsets.length; i++) rows.push([b.base + BigInt(b.offsets[i]!), b.column.values[i]]);
    }
  } finally {
    cursor.close();
  }
  return { rows: rows.slice(0, limit), batches, now, takes };
}

async function readFirst(engine: Engine, ascending: boolean, limit: number, startNs = 0n, endNs = 100_000n * SEC): Promise<[bigint, unknown][]> {
  const byNext = await read(engine, ascending, limit, startNs, endNs, 'next');
  for (const mode of ['now', 'mixed', 'now'] as const) {
    const other = await read(engine, ascending, limit, startNs, endNs, mode);
    assert.deepEqual(other.rows, byNext.rows, mode);
    assert.deepEqual(other.batches, byNext.batches, mode);
    // The blocks are in the block cache after the first read: every batch is there without waiting.
    if (mode === 'now') assert.equal(other.now, other.takes);
  }
  return byNext.rows;
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

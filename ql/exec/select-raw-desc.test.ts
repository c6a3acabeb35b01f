import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';

/**
 * ORDER BY time DESC LIMIT n reads the first row of the newest stored blocks from their last
 * value alone (StatsBlock.head: integer blocks sum their deltas, the value is kept with the
 * decoded blocks). Its rows must equal the ascending read of whole blocks, reversed and cut,
 * over several TSM files, series present in only some of them, overlapping and unsorted
 * writes left in the cache, a delete, with OFFSET and LIMIT > 1, asked twice (the second
 * time from kept last values) and after the ascending reads.
 */
type Series = { tags?: Record<string, string>; columns: string[]; values: unknown[][] };

async function withEngine(body: (engine: Engine, run: (q: string) => Promise<Series[]>) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'strata-raw-desc-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  try {
    await engine.catalog.createDatabase('db');
    const run = async (q: string) => {
      const [result] = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
      const text = JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      assert.ok(!text.includes('"error"'), `${q}: ${text}`);
      return ((JSON.parse(text) as { series?: Series[] }).series ?? []);
    };
    await body(engine, run);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** A random walk per host and field, deterministic: Huffman-coded integer deltas, floats, booleans, strings. */
function lines(hosts: readonly string[], from: number, to: number, step = 1, salt = 0): Buffer {
  const out: string[] = [];
  for (let t = from; step > 0 ? t < to : t > to; t += step) {
    for (const h of hosts) {
      const k = t * 31 + h.charCodeAt(0) * 7 + salt;
      const walk = 1000 + (k % 7) - 3 + Math.floor(t / 3);
      const fields = [`u=${walk}i`, `g=${(k % 997) / 8}`, `b=${k % 3 === 0}`, `s="v${k % 11}"`].filter((_, f) => (t + f) % 5 !== 0);
      out.push(`cpu,host=${h} ${fields.join(',')} ${1_600_000_000 + t * 10}`);
    }
  }
  return Buffer.from(out.join('\n'));
}

test('ORDER BY time DESC LIMIT/OFFSET equals the ascending rows reversed, over files, cache, deletes and kept last values', async () => {
  await withEngine(async (engine, run) => {
    await engine.write({ db: 'db', precision: 's', body: lines(['a', 'b', 'c'], 0, 2500) });
    await engine.flush();
    // Host d only in the second file, host a not in it; c's newest points are deleted below.
    await engine.write({ db: 'db', precision: 's', body: lines(['b', 'c', 'd'], 2500, 4200) });
    await engine.flush();
    // Cache: b written backwards over the end of the files with other values (newest write wins), e only here.
    await engine.write({ db: 'db', precision: 's', body: lines(['b'], 4300, 4000, -1, 5) });
    await engine.write({ db: 'db', precision: 's', body: lines(['e'], 100, 180) });
    const deleteFrom = BigInt(1_600_000_000 + 4100 * 10) * 1_000_000_000n;
    await engine.delete({ db: 'db', measurements: ['cpu'], expr: { op: 'eq', key: 'host', value: 'c' }, minNs: deleteFrom, maxNs: deleteFrom * 2n, dropSeries: false });

    const queries: [cols: string, limit: number, offset: number][] = [];
    for (const cols of ['*', 'u', 'u, s', 'b, g']) for (const [limit, offset] of [[1, 0], [1, 3], [7, 0], [5, 2], [1200, 0]] as const) queries.push([cols, limit, offset]);
    const text = ([cols, limit, offset]: (typeof queries)[number]) => `SELECT ${cols} FROM cpu GROUP BY host ORDER BY time DESC LIMIT ${limit} OFFSET ${offset}`;
    // Each asked twice in a row before any ascending read (LIMIT 1: the second time from kept
    // last values; after a read of more rows, from kept whole blocks), then once more after it.
    const before: [Series[], Series[]][] = [];
    for (const q of queries) before.push([await run(text(q)), await run(text(q))]);
    const hosts = new Set<string>();
    for (const [i, q] of queries.entries()) {
      const all = await run(`SELECT ${q[0]} FROM cpu GROUP BY host`);
      all.forEach((s) => hosts.add(s.tags!.host!));
      const [, limit, offset] = q;
      const want = all
        .map((s) => ({ ...s, values: [...s.values].reverse().slice(offset, offset + limit) }))
        .filter((s) => s.values.length > 0)
        .reverse();
      assert.deepEqual(before[i]![0], want, text(q));
      assert.deepEqual(before[i]![1], want, `${text(q)} (again)`);
      assert.deepEqual(await run(text(q)), want, `${text(q)} (after the ascending read)`);
    }
    assert.deepEqual([...hosts].sort(), ['a', 'b', 'c', 'd', 'e']);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';

/**
 * A raw SELECT whose WHERE reads some of the fields takes the condition-first path
 * (series-rows.ts); wrapping the field in abs() (values are >= 0 here) keeps the meaning but
 * forces the joined path. Sparse fields, several series, files and cache: both must agree.
 */
/** Runs `body` on a fresh engine with database `db`, and `run(q)` giving a query's answer as JSON text. */
async function withEngine(body: (engine: Engine, run: (q: string) => Promise<string>) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'strata-raw-filter-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  try {
    await engine.catalog.createDatabase('db');
    const run = async (q: string) => JSON.stringify(await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n }), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    await body(engine, run);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

test('raw WHERE on fields: condition-first rows equal the joined rows', async () => {
  await withEngine(async (engine, run) => {
    const lines = (from: number, to: number) => {
      const out: string[] = [];
      for (let t = from; t < to; t++) {
        for (const h of ['a', 'b']) {
          const fields = [`v=${(t * 7 + h.charCodeAt(0)) % 50}`, `w=${(t * 13) % 40}i`, `s="x${t}"`].filter((_, k) => (t + k) % 4 !== 0);
          out.push(`m,host=${h} ${fields.join(',')} ${1_700_000_000 + t * 600}`);
        }
      }
      return Buffer.from(out.join('\n'));
    };
    await engine.write({ db: 'db', precision: 's', body: lines(0, 3000) });
    await engine.flush();
    await engine.write({ db: 'db', precision: 's', body: lines(2500, 3500) }); // overlaps the file, stays in the cache
    for (const [where, tail] of [
      ['v > 40', ''],
      ['v > 40 AND w < 10', ''],
      ['v > 40 OR w = 3', ' GROUP BY host'],
      ["v > 40 AND host = 'a'", ' ORDER BY time DESC LIMIT 7'],
      ['NOT (v < 45)', ' ORDER BY time DESC'],
      ['v + w > 70', ' LIMIT 20 OFFSET 3'],
      ["v > 40 OR host = 'a'", ''], // true without v for host a: must stay on the joined path
    ] as const) {
      const joined = where.replace(/\b([vw])\b/g, 'abs($1)');
      for (const cols of ['*', 'w, s', 's']) {
        const fast = `SELECT ${cols} FROM m WHERE ${where}${tail}`;
        const got = await run(fast);
        assert.ok(got.includes('"values"'), fast);
        assert.equal(got, await run(`SELECT ${cols} FROM m WHERE ${joined}${tail}`), fast);
      }
    }
  });
});

/**
 * A slowly rising field spread over several TSM blocks (and the cache): blocks whose stats rule
 * the WHERE out are skipped undecoded on the condition-first path; the rows must still equal the
 * joined path's, for conditions that rule out some blocks, all of them, or none.
 */
test('raw WHERE on one field: blocks ruled out by their stats are skipped, rows unchanged', async () => {
  await withEngine(async (engine, run) => {
    const lines = (from: number, to: number) => {
      const out: string[] = [];
      for (let t = from; t < to; t++) out.push(`m,host=a v=${Math.floor(t / 100)}i,f=${(t % 97) / 4},w=${t % 13}i ${1_700_000_000 + t * 10}`);
      return Buffer.from(out.join('\n'));
    };
    await engine.write({ db: 'db', precision: 's', body: lines(0, 5000) });
    await engine.flush();
    await engine.write({ db: 'db', precision: 's', body: lines(4990, 5600) });
    for (const where of ['v > 37', 'v >= 12 AND v < 14', '20 > v', 'v = 49 OR v < 2', 'v > 1000', 'v < 1000', 'f > 23.5', 'f = 0']) {
      const joined = where.replace(/\b([vf])\b/g, 'abs($1)');
      for (const tail of ['', ' ORDER BY time DESC LIMIT 30']) {
        const fast = `SELECT * FROM m WHERE ${where}${tail}`;
        assert.equal(await run(fast), await run(`SELECT * FROM m WHERE ${joined}${tail}`), fast);
      }
    }
  });
});

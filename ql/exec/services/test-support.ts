/**
 * Helpers for the service tests: a real Engine in a directory that outlives close() (restart
 * tests), statements run through the full query path (SELECT and meta), results as plain rows.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../../engine/index.js';
import { parseQuery } from '../../parser/query.js';
import { executeStatements } from '../executor.js';
import { executeMetaStatement } from '../meta/index.js';

export function openEngine(root: string): Promise<Engine> {
  return Engine.open(
    engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, compaction: { intervalMs: 0, coldAfterMs: 3_600_000, maxFileBytes: 1 << 28 } }),
  );
}

export interface Rows {
  readonly name?: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly columns: readonly string[];
  readonly values: unknown[][];
}

/** Run `q` with database `db`; fails on a statement error; the series of the last statement (times in seconds). */
export async function query(engine: Engine, q: string, db = 'db', nowNs = BigInt(Date.now()) * 1_000_000n): Promise<Rows[]> {
  const results = await executeStatements(parseQuery(q), { engine, database: db, retentionPolicy: '', nowNs }, executeMetaStatement);
  for (const r of results) if (r.error !== undefined) assert.fail(`${q}: ${r.error}`);
  const last = results[results.length - 1];
  return (last?.series ?? []).map((s) => ({
    ...(s.name === undefined ? {} : { name: s.name }),
    ...(s.tags === undefined ? {} : { tags: s.tags }),
    columns: s.columns,
    values: s.values.map((row) => row.map((c, i) => (typeof c !== 'bigint' ? c : i === 0 && s.columns[0] === 'time' ? Number(c / 1_000_000_000n) : Number(c)))),
  }));
}

export async function writeLines(engine: Engine, lines: readonly string[], db = 'db'): Promise<void> {
  await engine.write({ db, precision: 's', body: Buffer.from(lines.join('\n')) });
}

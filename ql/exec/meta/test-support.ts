/**
 * Helpers for the metadata executor's tests: a real Engine in a temp directory, statements run
 * from query text (1.x batch semantics: the first error stops the batch), results as plain
 * JSON-like values, and the conformance dataset loader (fixtures/meta/dataset.json).
 */
import { executeStatements } from '../executor.js';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../../engine/index.js';
import type { Precision } from '../../../engine/index.js';
import { parseQuery } from '../../parser/query.js';
import type { ResultSeries } from '../../result.js';
import type { QueryContext, QueryUser } from '../context.js';
import { executeMetaStatement, isMetaStatement } from './index.js';

export interface TestEngine {
  readonly engine: Engine;
  close(): Promise<void>;
}

export async function openTestEngine(): Promise<TestEngine> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-meta-'));
  const engine = await Engine.open(engineOptions({ walDir: join(dir, 'wal'), metaDir: join(dir, 'meta'), dataDir: join(dir, 'data'), flushIntervalSec: 0 }));
  return {
    engine,
    async close() {
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One statement's result as the HTTP layer would serialise it (bigints that fit become numbers). */
export interface PlainResult {
  series?: unknown[];
  error?: string;
}

function plainSeries(s: ResultSeries): unknown {
  const out: Record<string, unknown> = {};
  if (s.name !== undefined) out.name = s.name;
  if (s.tags !== undefined) out.tags = s.tags;
  out.columns = [...s.columns];
  if (s.values.length > 0) out.values = s.values.map((row) => row.map((c) => (typeof c === 'bigint' ? Number(c) : c)));
  return out;
}

export interface RunOptions {
  readonly db?: string;
  /** The request's `rp` parameter. */
  readonly rp?: string;
  readonly user?: QueryUser;
  readonly nowNs?: bigint;
  /** Injected hasher (fast in tests); default: the argon2id hasher of password.ts. */
  readonly hashPassword?: (password: string) => Promise<string>;
}

export function context(engine: Engine, o: RunOptions = {}): QueryContext {
  const ctx: { -readonly [K in keyof QueryContext]: QueryContext[K] } = {
    engine,
    database: o.db ?? '',
    retentionPolicy: o.rp ?? '',
    nowNs: o.nowNs ?? BigInt(Date.now()) * 1_000_000n,
  };
  if (o.user) ctx.user = o.user;
  if (o.hashPassword) ctx.hashPassword = o.hashPassword;
  return ctx;
}

/** Run every statement of `q`; after an error the rest report `not executed` (1.x). */
export async function run(engine: Engine, q: string, o: RunOptions = {}): Promise<PlainResult[]> {
  const out: PlainResult[] = [];
  let failed = false;
  for (const stmt of parseQuery(q)) {
    if (failed) {
      out.push({ error: 'not executed' });
      continue;
    }
    if (!isMetaStatement(stmt)) {
      // SELECT (e.g. INTO in DDL cases) goes through the real executor.
      const [r] = await executeStatements([stmt], context(engine, o), executeMetaStatement);
      if (r?.error !== undefined) {
        out.push({ error: r.error });
        failed = true;
      } else out.push(r?.series && r.series.length > 0 ? { series: r.series.map(plainSeries) } : {});
      continue;
    }
    try {
      const res = await executeMetaStatement(stmt, context(engine, o));
      out.push(res.series.length > 0 ? { series: res.series.map(plainSeries) } : {});
    } catch (err) {
      failed = true;
      out.push({ error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}

/** Series of a single-statement query; throws the statement's error. */
export async function series1(engine: Engine, q: string, o: RunOptions = {}): Promise<unknown[] | undefined> {
  const [r] = await run(engine, q, o);
  if (r?.error) assert.fail(r.error);
  return r?.series;
}

export async function write(engine: Engine, db: string, lines: string, precision: Precision = 'ns', rp?: string): Promise<void> {
  await engine.write(rp === undefined ? { db, precision, body: Buffer.from(lines) } : { db, rp, precision, body: Buffer.from(lines) });
}

export const fixtureUrl = (name: string): URL => new URL(`../../../../fixtures/meta/${name}`, import.meta.url);

interface Dataset {
  databases: { name: string; rps: { name: string; duration?: string; shardDuration?: string; default?: boolean }[] }[];
  batches: { db: string; rp: string | null; precision: string; lines: string[] }[];
}

const PRECISION: Readonly<Record<string, Precision>> = { ns: 'ns', n: 'ns', u: 'us', us: 'us', ms: 'ms', s: 's' };

/** Create the conformance databases (as dataset.mjs does, through our own DDL) and write the data. */
export async function loadDataset(engine: Engine): Promise<void> {
  const ds = JSON.parse(await readFile(fixtureUrl('dataset.json'), 'utf8')) as Dataset;
  for (const { name, rps } of ds.databases) {
    const stmts = [`CREATE DATABASE "${name}"`];
    for (const rp of rps) {
      stmts.push(
        `CREATE RETENTION POLICY "${rp.name}" ON "${name}" DURATION ${rp.duration ?? 'INF'} REPLICATION 1` +
          (rp.shardDuration ? ` SHARD DURATION ${rp.shardDuration}` : '') +
          (rp.default ? ' DEFAULT' : ''),
      );
    }
    for (const r of await run(engine, stmts.join('; '))) if (r.error) assert.fail(`${name}: ${r.error}`);
  }
  for (const b of ds.batches) await write(engine, b.db, b.lines.join('\n'), PRECISION[b.precision] ?? 'ns', b.rp ?? undefined);
}

/**
 * Helpers for the executor's tests (and for planner tests): build typed columns from plain
 * values, run a reducer over a series cut into batches, run against a throw-away engine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions, FieldType } from '../../engine/index.js';
import type { ValueColumn } from '../../engine/index.js';
import { createReducer } from './reducers/index.js';
import type { ReducerArgs } from './reducers/index.js';
import type { ResultRow, Scalar } from './value.js';

export type Pt = readonly [time: bigint | number, value: Scalar];

/** A column of `type` holding `values` (integers as BigInt64Array when one exceeds 2^53). */
export function column(type: FieldType, values: readonly Scalar[]): ValueColumn {
  switch (type) {
    case FieldType.Float:
      return { type, values: Float64Array.from(values as number[]) };
    case FieldType.Integer:
      if (values.every((v) => typeof v === 'number')) return { type, values: Float64Array.from(values as number[]) };
      return { type, values: BigInt64Array.from(values.map((v) => BigInt(v as number | bigint))) };
    case FieldType.Unsigned:
      if (values.every((v) => typeof v === 'number')) return { type, values: Float64Array.from(values as number[]) };
      return { type, values: BigUint64Array.from(values.map((v) => BigInt(v as number | bigint))) };
    case FieldType.Boolean:
      return { type, values: Uint8Array.from(values.map((v) => (v ? 1 : 0))) };
    case FieldType.String:
      return { type, values: values.map((v) => String(v)) };
  }
}

/**
 * Feed points (time-ordered) to a fresh reducer, cut into batches at `cuts` (indices), each
 * batch with its own base (the batch's first time), and return its result.
 */
export function reduce(name: string, type: FieldType, pts: readonly Pt[], args: ReducerArgs = {}, cuts: readonly number[] = []): ResultRow[] {
  const r = createReducer(name, type, args);
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < pts.length), pts.length];
  for (let b = 0; b + 1 < bounds.length; b++) {
    const slice = pts.slice(bounds[b], bounds[b + 1]);
    if (slice.length === 0) continue;
    const base = BigInt((slice[0] as Pt)[0]);
    const offsets = Float64Array.from(slice.map((p) => Number(BigInt(p[0]) - base)));
    // Pad both ends so from/to are exercised.
    const padded = new Float64Array(offsets.length + 2);
    padded.set(offsets, 1);
    padded[offsets.length + 1] = (offsets[offsets.length - 1] ?? 0) + 1;
    const vals = slice.map((p) => p[1]);
    const pad = vals[0] ?? null;
    r.add(base, padded, column(type, [pad, ...vals, pad]), 1, offsets.length + 1);
  }
  return r.result();
}

/** An engine over a fresh temporary directory with database `db` (no background flush), closed and removed after `fn`. */
export async function withDbEngine(prefix: string, fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  try {
    await engine.catalog.createDatabase('db');
    await fn(engine);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** A whole minute, in seconds, and its RFC 3339 literal for a WHERE clause. */
export const T = 1_699_999_980;
export const at = (sec: number): string => `'${new Date(sec * 1000).toISOString()}'`;

/**
 * Helpers for the compaction tests: write TSM files from plain rows (really encoded, so merges
 * decode them), and read every key of a file back as rows. Not used by production code.
 */
import { NO_TOMBSTONES } from '../tombstone/filter.js';
import assert from 'node:assert/strict';
import { decodeBlock, encodeBlock } from '../encoding/block.js';
import { FieldType } from '../point.js';
import type { ValueColumn } from '../point.js';
import { basename } from 'node:path';
import { rm } from 'node:fs/promises';
import { fieldKey, splitFieldKey } from '../cache/cache.js';
import { tempDir } from '../tsm/test-support.js';
import type { CleanupScope } from '../testing/temp-dir.js';
import { planCompactions } from './planner.js';
import type { CompactionPlan } from './planner.js';
import type { EngineLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { tsmRuns } from '../query/file-runs.js';
import { SeriesCursor } from '../query/series-cursor.js';
import { Shard } from '../shard/shard.js';
import { TsmFileSet } from '../tsm/file-set.js';
import { parseTsmFileName } from '../tsm/format.js';
import { TsmReader } from '../tsm/reader.js';
import type { PlanFile } from './planner.js';
import { TsmWriter } from '../tsm/writer.js';
import type { TsmFileInfo } from '../tsm/writer.js';

/** A JS value of any field type (integers as numbers: tests stay below 2^53). */
export type Value = number | boolean | string;
/** [offset from base, value], ascending, unique offsets. */
export type Row = readonly [number, Value];

export interface KeyRows {
  readonly key: string;
  readonly type: FieldType;
  readonly rows: readonly Row[];
}

export function columnOf(type: FieldType, values: readonly Value[]): ValueColumn {
  switch (type) {
    case FieldType.Float:
      return { type, values: Float64Array.from(values as number[]) };
    case FieldType.Integer:
      return { type, values: Float64Array.from(values as number[]) };
    case FieldType.Unsigned:
      return { type, values: Float64Array.from(values as number[]) };
    case FieldType.Boolean:
      return { type, values: Uint8Array.from(values as boolean[], (b) => (b ? 1 : 0)) };
    case FieldType.String:
      return { type, values: values as string[] };
  }
}

export function valueAt(col: ValueColumn, i: number): Value {
  switch (col.type) {
    case FieldType.Boolean:
      return col.values[i] === 1;
    case FieldType.String:
      return col.values[i]!;
    default:
      return Number(col.values[i]!);
  }
}

/** Writes `keys` (sorted by key bytes) with blocks of `blockSize` rows; returns the file info. */
export async function writeRows(path: string, baseNs: bigint, keys: readonly KeyRows[], blockSize: number, level = 0): Promise<TsmFileInfo> {
  const w = await TsmWriter.create(path, { level });
  try {
    for (const { key, type, rows } of keys) {
      const offsets = Float64Array.from(rows, (r) => r[0]);
      const column = columnOf(
        type,
        rows.map((r) => r[1]),
      );
      for (let s = 0; s < rows.length; s += blockSize) {
        const e = Math.min(rows.length, s + blockSize);
        const payload = encodeBlock(baseNs, offsets, column, s, e);
        await w.writeBlock(key, type, baseNs + BigInt(offsets[s]!), baseNs + BigInt(offsets[e - 1]!), e - s, payload);
      }
    }
    return await w.finish();
  } catch (err) {
    await w.abort();
    throw err;
  }
}

/** Every key's rows, checking block invariants on the way (≤ maxPoints, ascending). */
export async function readRows(reader: TsmReader, baseNs: bigint, maxPoints = Infinity): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  for (const key of reader.keys()) {
    const rows: Row[] = [];
    for (const e of reader.entries(key)) {
      assert.ok(e.count <= maxPoints, `block of ${e.count} values > ${maxPoints}`);
      const { offsets, column } = decodeBlock(await reader.readBlock(key, e), baseNs);
      assert.equal(offsets.length, e.count);
      for (let i = 0; i < offsets.length; i++) rows.push([offsets[i]!, valueAt(column, i)]);
    }
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]![0] < rows[i]![0], `${key}: rows out of order`);
    out.set(key, rows);
  }
  return out;
}

export async function readFile(path: string, baseNs: bigint, maxPoints = Infinity): Promise<Map<string, Row[]>> {
  const reader = await TsmReader.open(path);
  try {
    return await readRows(reader, baseNs, maxPoints);
  } finally {
    await reader.close();
  }
}

/** Last-write-wins union of per-file rows (files oldest first). */
export function lastWriteWins(files: readonly ReadonlyMap<string, readonly Row[]>[]): Map<string, Row[]> {
  const merged = new Map<string, Map<number, Value>>();
  for (const f of files) {
    for (const [key, rows] of f) {
      let m = merged.get(key);
      if (!m) merged.set(key, (m = new Map()));
      for (const [t, v] of rows) m.set(t, v);
    }
  }
  const out = new Map<string, Row[]>();
  for (const [key, m] of merged) if (m.size > 0) out.set(key, [...m.entries()].sort((a, b) => a[0] - b[0]));
  return out;
}

// ── shards ───────────────────────────────────────────────────────────────────────────────────

/** A shard of 7 days starting 2023-11-14 with an open, empty file set in `dir`. */
export async function openShard(dir: string, logger: EngineLogger = silentLogger): Promise<Shard> {
  const shard = new Shard('db', 'rp', 1_699_920_000, 7 * 86_400, dir);
  shard.files = await TsmFileSet.open(dir, { logger });
  return shard;
}

/** Writes `keys` as the shard's next flushed (or `level`) file and adds it to the set. */
export async function addFile(shard: Shard, keys: readonly KeyRows[], blockSize = 1000, level = 0): Promise<string> {
  const files = shard.files!;
  const path = files.pathFor({ generation: files.nextGeneration(), sequence: 1 });
  await writeRows(path, shard.baseNs, keys, blockSize, level);
  await files.add(path);
  return path;
}

/** The planner's view of the shard's live files (no tombstones). */
export function planFiles(shard: Shard): PlanFile[] {
  return shard.files!.files().map((r) => ({
    path: r.path,
    id: parseTsmFileName(basename(r.path))!,
    level: r.level,
    size: r.stats().bytes,
    tombstoned: false,
  }));
}

/** One key read through the engine's read path (SeriesCursor over the shard's TSM files). */
export async function readThroughEngine(shard: Shard, key: string, type: FieldType): Promise<Row[]> {
  const { seriesKey, field } = splitFieldKey(key);
  const req = { db: 'db', rp: 'rp', measurement: '', seriesKey, field, startNs: shard.baseNs, endNs: shard.endNs - 1n, ascending: true };
  const cursor = new SeriesCursor([shard], req, type, (...a) => tsmRuns(NO_TOMBSTONES, ...a));
  const rows: Row[] = [];
  try {
    for (let b = await cursor.next(); b; b = await cursor.next()) {
      const shift = Number(b.base - shard.baseNs);
      for (let i = 0; i < b.offsets.length; i++) rows.push([b.offsets[i]! + shift, valueAt(b.column, i)]);
    }
  } finally {
    cursor.close();
  }
  return rows;
}

// ── a four-file shard with overlapping rows of every kind ────────────────────────────────────

export const SAMPLE_KEYS: readonly [string, FieldType][] = [
  [fieldKey('cpu,host=a', 'idle'), FieldType.Float],
  [fieldKey('cpu,host=a', 'n'), FieldType.Integer],
  [fieldKey('cpu,host=b', 'idle'), FieldType.Float],
  [fieldKey('mem,host=a', 'state'), FieldType.String],
];

/** File `i` of four: overlapping windows (0..1500 shifted by 400 per file), step 3, so duplicates abound. */
function sampleFileKeys(i: number): KeyRows[] {
  return SAMPLE_KEYS.map(([key, type]) => {
    const rows: Row[] = [];
    for (let t = i * 400; t < i * 400 + 1500; t += 3) {
      const n = (t * 7 + i * 13) % 101;
      rows.push([t * 1000, type === FieldType.String ? `s${n}-${i}` : type === FieldType.Float ? n / 4 + i : n + i * 1000]);
    }
    return { key, type, rows };
  });
}

/** A shard of four overlapping level-0 files (blocks of 100) and the plan that merges them. */
export async function fourFileShard(scope: CleanupScope, prefix: string, logger = silentLogger): Promise<{ shard: Shard; dir: string; plan: CompactionPlan }> {
  const dir = await tempDir(scope, prefix);
  const shard = await openShard(dir, logger);
  for (let i = 0; i < 4; i++) await addFile(shard, sampleFileKeys(i), 100);
  const [plan] = planCompactions(planFiles(shard), { nowMs: 0, lastWriteMs: 0, coldAfterMs: 1 });
  assert.ok(plan);
  return { shard, dir, plan };
}

/** Every SAMPLE_KEYS key read through the engine's read path. */
export async function readAllKeys(shard: Shard): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  for (const [key, type] of SAMPLE_KEYS) out.set(key, await readThroughEngine(shard, key, type));
  return out;
}

export async function closeAndRemove(shard: Shard, dir: string): Promise<void> {
  await shard.close();
  await rm(dir, { recursive: true, force: true });
}

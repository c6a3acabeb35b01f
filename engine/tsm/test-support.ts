/**
 * Helpers shared by the engine/tsm tests (and later by compaction tests): describe a file's
 * content as plain data, write it through TsmWriter, and make deterministic payloads.
 * Not used by production code.
 */
import { tempDir as scopedTempDir } from '../testing/temp-dir.js';
import type { CleanupScope } from '../testing/temp-dir.js';
import type { FieldType } from '../point.js';
import type { BlockStats } from './block-stats.js';
import { TsmWriter } from './writer.js';
import type { TsmFileInfo } from './writer.js';

export interface BlockSpec {
  readonly minTime: bigint;
  readonly maxTime: bigint;
  readonly count: number;
  readonly payload: Uint8Array;
  readonly stats?: BlockStats;
}

export interface KeySpec {
  readonly key: string;
  readonly type: FieldType;
  readonly blocks: readonly BlockSpec[];
}

/** A fresh `strata-<prefix>-XXXXXX` temp directory, removed when the test (`scope`) ends. */
export function tempDir(scope: CleanupScope, prefix: string): Promise<string> {
  return scopedTempDir(scope, `strata-${prefix}-`);
}

/** Writes `keys` (already in byte order) as one TSM file. */
export async function writeTsm(path: string, keys: readonly KeySpec[], level = 0, bufferSize?: number): Promise<TsmFileInfo> {
  const w = await TsmWriter.create(path, bufferSize === undefined ? { level } : { level, bufferSize });
  try {
    for (const k of keys) {
      for (const b of k.blocks) await w.writeBlock(k.key, k.type, b.minTime, b.maxTime, b.count, b.payload, b.stats);
    }
    return await w.finish();
  } catch (err) {
    await w.abort();
    throw err;
  }
}

/** `length` bytes derived from `seed` (xorshift), distinct for distinct seeds. */
export function payload(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Byte-order comparison of strings as UTF-8 (the order TSM keys must be in). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Tombstone collection: deletes must not leave a tombstone behind forever (every read of a
 * marked shard and every compaction of it consults each one, and the catalog grows).
 *
 * A tombstone does two jobs (tombstones.ts): it hides rows of the TSM files of a shard with a
 * generation below its mark for that shard, and it hides WAL entries up to its seq at replay.
 * So:
 * - its mark for a shard is dropped once no file of the shard that it could cover still holds
 *   a hidden row (compaction purged them), and no file a compaction replaced may still come
 *   back after a crash; or once the shard itself is gone from disk (retention);
 * - the tombstone itself is dropped once it has no marks left and the WAL holds no entry at or
 *   below its seq (a flush truncated them).
 *
 * "Holds a hidden row" is the compaction service's exact look at the rows (its probe: cached
 * only while the set of tombstones is unchanged), and it counts rows hidden by any tombstone,
 * so a file still holding another tombstone's rows keeps every mark that covers it: simpler, and
 * only ever later. Runs between compaction rounds; a flush in progress may still publish a file
 * numbered below a mark taken while it ran, so nothing is collected then.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '../fs/atomic.js';
import type { TombstoneInfo } from '../meta/model.js';
import type { Shard } from '../shard/shard.js';
import { DROPPED_SUFFIX } from '../retention/drop-dir.js';
import { fileGeneration } from './tombstones.js';
import type { TsmReader } from '../tsm/reader.js';

export interface CollectorDeps {
  tombstones(): readonly TombstoneInfo[];
  /** The live shard with this key, or undefined. */
  shard(key: string): Shard | undefined;
  /** Where the shard with this key lives or lived (undefined: its database or policy is gone). */
  shardDir(key: string): string | undefined;
  readonly flushing: boolean;
  /** No WAL entry below this seq is left. */
  readonly walFirstSeq: bigint;
  hasHiddenRows(shard: Shard, reader: TsmReader): Promise<boolean>;
  replacedFilesLinger(shard: Shard): boolean;
  revise(marks: ReadonlyMap<string, Record<string, number>>, remove: ReadonlySet<string>): Promise<void>;
}

export interface Collected {
  readonly marksDropped: number;
  readonly tombstonesRemoved: number;
}

export async function collectTombstones(deps: CollectorDeps): Promise<Collected> {
  const all = deps.tombstones();
  if (all.length === 0 || deps.flushing) return { marksDropped: 0, tombstonesRemoved: 0 };
  const verdicts = new Map<string, boolean>(); // `${shard key}\0${mark}` → may drop
  const synced = new Set<string>();
  const marks = new Map<string, Record<string, number>>();
  const remove = new Set<string>();
  let marksDropped = 0;
  for (const t of all) {
    const kept: Record<string, number> = {};
    let dropped = 0;
    for (const [key, mark] of Object.entries(t.marks)) {
      const v = `${key}\u0000${mark}`;
      let free = verdicts.get(v);
      if (free === undefined) verdicts.set(v, (free = await markIsFree(deps, key, mark, synced)));
      if (free) dropped++;
      else kept[key] = mark;
    }
    marksDropped += dropped;
    if (Object.keys(kept).length === 0 && BigInt(t.seq) < deps.walFirstSeq) remove.add(t.id);
    else if (dropped > 0) marks.set(t.id, kept);
  }
  if (remove.size > 0 || marks.size > 0) await deps.revise(marks, remove);
  return { marksDropped, tombstonesRemoved: remove.size };
}

async function markIsFree(deps: CollectorDeps, key: string, mark: number, synced: Set<string>): Promise<boolean> {
  const shard = deps.shard(key);
  if (!shard) {
    const dir = deps.shardDir(key);
    return dir !== undefined && !(await exists(dir)) && !(await exists(dir + DROPPED_SUFFIX));
  }
  if (deps.replacedFilesLinger(shard) || !shard.files) return false;
  for (const reader of shard.files.files()) {
    if (fileGeneration(reader.path) >= mark) continue;
    if (await deps.hasHiddenRows(shard, reader)) return false;
  }
  // Files a compaction deleted must stay deleted through a crash before their rows are unhidden.
  if (!synced.has(shard.dir)) {
    synced.add(shard.dir);
    if (await exists(shard.dir)) await fsyncDir(shard.dir);
  }
  return true;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** The directory of the shard with `key` under a retention policy directory. */
export function shardDirUnder(rpDir: string, key: string): string {
  return join(rpDir, key.slice(key.lastIndexOf('\u0000') + 1));
}

/**
 * Data checkpoint: the engine's data directory (`<data>/<db>/series.log`,
 * `<data>/<db>/<rp>/<start>_<span>/*.tsm`) copied from a possibly live engine.
 *
 * - TSM files are immutable once published (TsmWriter renames a fsynced `.tmp` into place),
 *   so they are hard-linked (copied when linking fails, e.g. across file systems); `.tmp`
 *   files and `quarantine/` are skipped, so a half-written file is never taken.
 * - A compaction publishes its outputs before it deletes its inputs. When a listed file is
 *   gone by the time it is linked, the directory is listed again and the new files are taken
 *   too, until one pass links everything it listed: the linked set then covers every point
 *   that any file held when the pass began. Extra files (inputs next to their outputs) are
 *   harmless, as after a crash between the two steps (see tsm/file-set.ts).
 * - Every taken TSM file is opened with TsmReader (header, footer and index checksums).
 * - `series.log` is append-only; it is copied up to its last complete record.
 */
import { copyFile, link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { OBSOLETE_SUFFIX } from '../tsm/obsolete-files.js';
import { SHARD_FIELDS_FILE } from '../shard/shard-fields.js';
import { join } from 'node:path';
import { decodeRecords, SERIES_LOG_FILE } from '../series/log.js';
import { parseShardDirName } from '../shard/shard-set.js';
import { parseTsmFileName } from '../tsm/format.js';
import { TsmReader } from '../tsm/reader.js';
import type { EngineLogger } from '../logger.js';

/** Attempts per shard directory before giving up on a steady listing. */
const MAX_PASSES = 50;

export interface DataCheckpoint {
  /** Paths relative to the data directory, `/`-separated. */
  readonly files: readonly string[];
  readonly linked: number;
  readonly copied: number;
}

async function subdirs(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** TSM files of a shard directory, without those a compaction replaced (marked: tsm/obsolete-files.ts). */
async function listTsm(dir: string): Promise<string[]> {
  try {
    const names = await readdir(dir);
    // A marker is written after its compaction's outputs are published, so a listing that
    // holds it holds the outputs too.
    const replaced = new Set(names.filter((n) => n.endsWith(OBSOLETE_SUFFIX)).map((n) => n.slice(0, -OBSOLETE_SUFFIX.length)));
    return names.filter((n) => parseTsmFileName(n) !== null && !replaced.has(n)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Link (or copy) `from` to `to`; false when `from` no longer exists. */
async function take(from: string, to: string, counts: { linked: number; copied: number }): Promise<boolean> {
  try {
    await link(from, to);
    counts.linked++;
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'EEXIST') return true;
  }
  try {
    await copyFile(from, to);
    counts.copied++;
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Test seam: runs after each listing of a shard directory, before its files are taken. */
export type AfterList = (dir: string, names: readonly string[]) => Promise<void>;

async function checkpointShard(
  src: string,
  dst: string,
  counts: { linked: number; copied: number },
  logger: EngineLogger,
  afterList: AfterList | undefined,
): Promise<string[]> {
  await mkdir(dst, { recursive: true });
  const taken = new Set<string>();
  for (let pass = 0; ; pass++) {
    let missed = false;
    const names = await listTsm(src);
    await afterList?.(src, names);
    for (const name of names) {
      if (taken.has(name)) continue;
      if (await take(join(src, name), join(dst, name), counts)) taken.add(name);
      else missed = true;
    }
    if (!missed) break;
    if (pass >= MAX_PASSES) {
      logger.warn({ dir: src }, 'backup: shard kept changing while being copied; taking what was linked');
      break;
    }
  }
  const good: string[] = [];
  for (const name of [...taken].sort()) {
    try {
      const r = await TsmReader.open(join(dst, name));
      await r.close();
      good.push(name);
    } catch (err) {
      // The engine would quarantine this file at start-up; a backup must not carry it.
      logger.error({ file: join(src, name), err }, 'backup: TSM file fails verification; left out');
      await rm(join(dst, name), { force: true });
    }
  }
  // After the files: the shard writes its field record before each flush's files, so the record
  // read now names the fields of every file taken above.
  try {
    await writeFile(join(dst, SHARD_FIELDS_FILE), await readFile(join(src, SHARD_FIELDS_FILE)));
    good.push(SHARD_FIELDS_FILE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return good;
}

/** Copy `dataDir` into `targetDir` (which exists and is empty). */
export async function checkpointData(dataDir: string, targetDir: string, logger: EngineLogger, afterList?: AfterList): Promise<DataCheckpoint> {
  const files: string[] = [];
  const counts = { linked: 0, copied: 0 };
  for (const db of await subdirs(dataDir)) {
    for (const rp of await subdirs(join(dataDir, db))) {
      for (const shard of await subdirs(join(dataDir, db, rp))) {
        if (!parseShardDirName(shard)) continue;
        const names = await checkpointShard(join(dataDir, db, rp, shard), join(targetDir, db, rp, shard), counts, logger, afterList);
        for (const n of names) files.push(`${db}/${rp}/${shard}/${n}`);
      }
    }
    // After the TSM files: the log then names every series of a file flushed before this point.
    let log: Buffer;
    try {
      log = await readFile(join(dataDir, db, SERIES_LOG_FILE));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const { validLength } = decodeRecords(log);
    await mkdir(join(targetDir, db), { recursive: true });
    await writeFile(join(targetDir, db, SERIES_LOG_FILE), log.subarray(0, validLength));
    files.push(`${db}/${SERIES_LOG_FILE}`);
  }
  return { files, ...counts };
}

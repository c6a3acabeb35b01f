/**
 * Append-only persistence of one database's series index.
 *
 *   series.log
 *   ┌──────────────────────┬───────────────────────────────────────────────┐
 *   │ magic "STRSERI1" (8) │ record* : len u32 LE │ xxh32 u32 LE │ payload │
 *   └──────────────────────┴───────────────────────────────────────────────┘
 *   payload = UTF-8 JSON of a SeriesLogRecord.
 *
 * Appends are buffered and written+fsynced by `sync()`, which the engine calls before it
 * truncates the WAL: until then the WAL still holds every series the log may have missed.
 * A record stays buffered until a sync that wrote it succeeded: a failed one (EIO, ENOSPC) is
 * written again by the next, at the same offset.
 * On open a torn or damaged tail is cut (everything after the first bad record), copied to
 * `series.log.quarantine/`, logged, and the engine re-registers series from TSM keys and WAL
 * replay (also when the log is empty or was not a file: Database.completeFromFiles).
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checksum32 } from '../fs/checksum.js';
import type { EngineLogger } from '../logger.js';
import type { FieldType } from '../point.js';
import { fsyncDir, makeDirDurable, moveFile, writeFileAtomic } from '../fs/atomic.js';
import { writeAt } from '../fs/write-at.js';
import { StorageIoError } from '../errors.js';

export const SERIES_LOG_FILE = 'series.log';
export const SERIES_LOG_MAGIC = 'STRSERI1';
const MAGIC_LEN = 8;
const RECORD_HEADER_LEN = 8;
const MAX_RECORD_LEN = 64 * 1024 * 1024;

export type SeriesLogRecord =
  | { readonly t: 's'; readonly id: number; readonly k: string; readonly m: string; readonly g: readonly string[] }
  | { readonly t: 'f'; readonly m: string; readonly f: string; readonly y: FieldType }
  | { readonly t: 'd'; readonly ids: readonly number[] }
  /** Field `f` of measurement `m` has data in retention policy `r`. */
  | { readonly t: 'r'; readonly r: string; readonly m: string; readonly f: string };

export function encodeRecord(rec: SeriesLogRecord): Buffer {
  const payload = Buffer.from(JSON.stringify(rec), 'utf8');
  const out = Buffer.allocUnsafe(RECORD_HEADER_LEN + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(checksum32(payload), 4);
  payload.copy(out, RECORD_HEADER_LEN);
  return out;
}

/** Decode records from a whole file; returns them and the byte length of the valid prefix. */
export function decodeRecords(buf: Uint8Array): { records: SeriesLogRecord[]; validLength: number; damage?: string } {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < MAGIC_LEN || b.toString('latin1', 0, MAGIC_LEN) !== SERIES_LOG_MAGIC) {
    return { records: [], validLength: 0, damage: b.length === 0 ? undefined : 'bad header' };
  }
  const records: SeriesLogRecord[] = [];
  let off = MAGIC_LEN;
  while (off < b.length) {
    if (off + RECORD_HEADER_LEN > b.length) return { records, validLength: off, damage: 'truncated record header' };
    const len = b.readUInt32LE(off);
    if (len === 0 || len > MAX_RECORD_LEN || off + RECORD_HEADER_LEN + len > b.length) {
      return { records, validLength: off, damage: `bad record length ${len}` };
    }
    const payload = b.subarray(off + RECORD_HEADER_LEN, off + RECORD_HEADER_LEN + len);
    if (checksum32(payload) !== b.readUInt32LE(off + 4)) return { records, validLength: off, damage: 'checksum mismatch' };
    try {
      records.push(JSON.parse(payload.toString('utf8')) as SeriesLogRecord);
    } catch {
      return { records, validLength: off, damage: 'unparsable record' };
    }
    off += RECORD_HEADER_LEN + len;
  }
  return { records, validLength: off };
}

/**
 * Damaged series-log bytes go to `<db>/series.log.quarantine/`: a name with a dot, which no
 * encoded retention-policy name has (database.ts encodeName), so the shard loader never takes
 * it for a policy.
 */
export const SERIES_LOG_QUARANTINE_DIR = `${SERIES_LOG_FILE}.quarantine`;

/** `<db>/series.log.quarantine/series.log.<offset>`, with a `.N` suffix when taken (earlier evidence stays). */
async function quarantineName(path: string, offset: number): Promise<string> {
  const base = join(dirname(path), SERIES_LOG_QUARANTINE_DIR, `${basename(path)}.${offset}`);
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}.${n}`;
    if (!(await stat(candidate).then(() => true, () => false))) return candidate;
  }
}

async function moveAsideIfNotFile(path: string, logger: EngineLogger): Promise<boolean> {
  const st = await stat(path).catch(() => undefined);
  if (st === undefined || st.isFile()) return false;
  const aside = await quarantineName(path, 0);
  await moveFile(path, aside);
  logger.warn({ file: path, quarantined: aside }, 'series log is not a file; moved to quarantine, a new log is started');
  return true;
}

export class SeriesLog {
  private pending: Buffer[] = [];
  /** Bytes written and fdatasynced; pending records go right after them. */
  private synced: number;
  /** Syncs run one at a time: each writes at `synced`, which the one before may still move. */
  private syncing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly fh: FileHandle,
    size: number,
  ) {
    this.synced = size;
  }

  /** Open (creating) the log; returns the intact records. Damage is cut off and logged, never fatal. */
  static async open(path: string, logger: EngineLogger): Promise<{ log: SeriesLog; records: SeriesLogRecord[]; damaged: boolean }> {
    try {
      return await SeriesLog.openOrThrow(path, logger);
    } catch (err) {
      // An I/O error is not damage: nothing was cut for it (the records are read before any cut).
      throw StorageIoError.wrap(`cannot open the series log ${path}`, err);
    }
  }

  private static async openOrThrow(path: string, logger: EngineLogger): Promise<{ log: SeriesLog; records: SeriesLogRecord[]; damaged: boolean }> {
    await makeDirDurable(dirname(path));
    // A directory in the log's place (a copy gone wrong) failed every start with EISDIR.
    const movedAside = await moveAsideIfNotFile(path, logger);
    const fh = await open(path, 'a+');
    try {
      const opened = await SeriesLog.readAndRepair(path, fh, logger);
      return { ...opened, damaged: opened.damaged || movedAside };
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw err;
    }
  }

  /** Read the records of an open log, cut a damaged tail off; `damaged` when a cut was needed. */
  private static async readAndRepair(path: string, fh: FileHandle, logger: EngineLogger): Promise<{ log: SeriesLog; records: SeriesLogRecord[]; damaged: boolean }> {
    const data = await fh.readFile();
    const { records, validLength, damage } = decodeRecords(data);
    let size = data.length;
    if (damage !== undefined || data.length < MAGIC_LEN) {
      if (damage) {
        // The cut bytes may hold intact records after the damaged one: kept, not deleted.
        const aside = await quarantineName(path, validLength);
        await writeFileAtomic(aside, data.subarray(validLength));
        logger.warn({ file: path, offset: validLength, reason: damage, quarantined: aside }, 'series log damaged; cut at last good record, the rest kept in quarantine');
      }
      await fh.truncate(validLength);
      size = validLength;
      if (validLength === 0) {
        await fh.write(Buffer.from(SERIES_LOG_MAGIC, 'latin1'), 0, MAGIC_LEN, 0);
        size = MAGIC_LEN;
      }
      await fh.sync();
      // A new file's entry must be on disk before a flush lets the WAL go (fsync of the
      // file alone does not persist it).
      if (data.length === 0) await fsyncDir(dirname(path));
    }
    return { log: new SeriesLog(path, fh, size), records, damaged: damage !== undefined };
  }

  append(rec: SeriesLogRecord): void {
    this.pending.push(encodeRecord(rec));
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /**
   * Write buffered records and fdatasync them. Records leave the buffer only when both worked;
   * they were dropped before, so a later sync found nothing to write and the flush after it
   * truncated the WAL holding their series: those series' points were gone after a restart.
   * Why the bytes are written again instead of the fdatasync being retried: after a failed
   * fdatasync the kernel may have dropped the dirty pages and cleared the error (the 2018
   * "fsyncgate"), so a second fdatasync can succeed without the bytes ever reaching the disk.
   */
  sync(): Promise<void> {
    const run = this.syncing.then(() => this.syncPending());
    this.syncing = run.catch(() => undefined);
    return run;
  }

  private async syncPending(): Promise<void> {
    const n = this.pending.length;
    if (n === 0) return;
    const chunk = Buffer.concat(this.pending.slice(0, n));
    try {
      await writeAt(this.fh, chunk, this.synced);
      await this.fh.datasync();
    } catch (err) {
      // A torn tail would be cut as damage at the next open: leave none. The rewrite covers it anyway.
      await this.fh.truncate(this.synced).catch(() => undefined);
      throw new StorageIoError(`cannot write the series log ${this.path}: ${(err as Error).message}`, { cause: err });
    }
    this.pending.splice(0, n);
    this.synced += chunk.length;
  }

  async close(): Promise<void> {
    await this.sync();
    await this.fh.close();
  }
}

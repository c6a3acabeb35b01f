/**
 * `strata inspect`: verify and summarise the engine's files without opening the engine.
 * TSM files: header, footer and index checksums (TsmReader.open), then every block's checksum
 * (readBlock). Series logs: every record's checksum. WAL segments: header and every record's
 * checksum (the replay scanner). Read only; safe next to a running server (TSM files are
 * immutable, WAL bytes below the committed size are never rewritten; a record being appended
 * shows up as a torn tail of the last segment).
 */
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptionError } from '../errors.js';
import { initChecksum } from '../fs/checksum.js';
import { decodeName } from '../database.js';
import { decodeRecords, SERIES_LOG_FILE } from '../series/log.js';
import { parseShardDirName } from '../shard/shard-set.js';
import { parseTsmFileName, splitCompositeKey } from '../tsm/format.js';
import { TsmReader } from '../tsm/reader.js';
import { SEGMENT_HEADER_SIZE, decodeSegmentHeader } from '../wal/record.js';
import { readAt, scanSegment } from '../wal/scan.js';
import { listSegments } from '../wal/segment.js';

export interface Problem {
  readonly file: string;
  readonly offset: number;
  readonly reason: string;
}

export interface TsmFileReport {
  readonly file: string;
  readonly bytes: number;
  readonly keys: number;
  readonly series: number;
  readonly blocks: number;
  readonly points: number;
  readonly problems: readonly Problem[];
}

export interface ShardReport {
  readonly db: string;
  readonly rp: string;
  readonly shard: string;
  readonly files: readonly TsmFileReport[];
  readonly series: number;
  readonly blocks: number;
  readonly points: number;
  readonly bytes: number;
}

export interface WalSegmentReport {
  readonly file: string;
  readonly bytes: number;
  readonly entries: number;
  readonly firstSeq: string | undefined;
  readonly lastSeq: string | undefined;
  /** `torn`: an interrupted append at the end of the last segment (not counted as damage). */
  readonly problems: readonly (Problem & { readonly torn: boolean })[];
}

/** Check one TSM file: structure and every block. Never throws for damage. */
export async function inspectTsmFile(path: string, seriesOut?: Set<string>): Promise<TsmFileReport> {
  await initChecksum();
  const size = (await stat(path)).size;
  let reader: TsmReader;
  try {
    reader = await TsmReader.open(path);
  } catch (err) {
    const problem = err instanceof CorruptionError ? { file: path, offset: err.offset, reason: err.message } : { file: path, offset: 0, reason: String(err) };
    return { file: path, bytes: size, keys: 0, series: 0, blocks: 0, points: 0, problems: [problem] };
  }
  const problems: Problem[] = [];
  const series = new Set<string>();
  try {
    for (const key of reader.keys()) {
      const sk = splitCompositeKey(key)?.seriesKey ?? key;
      series.add(sk);
      seriesOut?.add(sk);
      for (const entry of reader.entries(key)) {
        try {
          await reader.readBlock(key, entry);
        } catch (err) {
          if (!(err instanceof CorruptionError)) throw err;
          problems.push({ file: path, offset: err.offset, reason: err.message });
        }
      }
    }
    const st = reader.stats();
    return { file: path, bytes: size, keys: st.keys, series: series.size, blocks: st.blocks, points: st.values, problems };
  } finally {
    await reader.close();
  }
}

async function subdirs(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return [];
  }
}

async function shardNamedFiles(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries.filter((d) => !d.isDirectory() && parseShardDirName(d.name)).map((d) => d.name).sort();
}

/** Every shard of a data directory, file by file. */
export async function inspectDataDir(dataDir: string, onFile?: (file: string) => void): Promise<ShardReport[]> {
  const out: ShardReport[] = [];
  for (const db of await subdirs(dataDir)) {
    for (const rp of await subdirs(join(dataDir, db))) {
      // A file named like a shard directory (a copy gone wrong): the server logs it and serves
      // nothing of that shard, so it is damage here too.
      for (const name of await shardNamedFiles(join(dataDir, db, rp))) {
        const file = join(dataDir, db, rp, name);
        const problem = { file, offset: 0, reason: 'a file where a shard directory belongs' };
        out.push({ db: decodeName(db), rp: decodeName(rp), shard: name, files: [{ file, bytes: 0, keys: 0, series: 0, blocks: 0, points: 0, problems: [problem] }], series: 0, blocks: 0, points: 0, bytes: 0 });
      }
      for (const shard of await subdirs(join(dataDir, db, rp))) {
        if (!parseShardDirName(shard)) continue;
        const dir = join(dataDir, db, rp, shard);
        const names = (await readdir(dir)).filter((n) => parseTsmFileName(n) !== null).sort();
        const series = new Set<string>();
        const files: TsmFileReport[] = [];
        for (const n of names) {
          onFile?.(join(dir, n));
          try {
            files.push(await inspectTsmFile(join(dir, n), series));
          } catch (err) {
            // Removed by a live server's compaction between listing and opening: not damage.
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
        }
        const sum = (f: (r: TsmFileReport) => number) => files.reduce((a, r) => a + f(r), 0);
        out.push({
          db: decodeName(db),
          rp: decodeName(rp),
          shard,
          files,
          series: series.size,
          blocks: sum((r) => r.blocks),
          points: sum((r) => r.points),
          bytes: sum((r) => r.bytes),
        });
      }
    }
  }
  return out;
}

/** Every segment of a WAL directory, record by record. */
export async function inspectWalDir(walDir: string): Promise<WalSegmentReport[]> {
  await initChecksum();
  const out: WalSegmentReport[] = [];
  const segments = await listSegments(walDir);
  let prev = 0n;
  for (const [i, ref] of segments.entries()) {
    const path = join(walDir, ref.name);
    // A segment that cannot be read (a directory in its place, no permission) is damage to
    // report (exit 2), not a reason for the tool to fail (exit 1).
    const fh = await open(path, 'r').catch((err: unknown) => unreadable(path, err));
    if (!('stat' in fh)) {
      out.push(fh);
      continue;
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) {
        out.push(unreadable(path, 'not a file'));
        continue;
      }
      const size = st.size;
      const header = decodeSegmentHeader(await readAt(fh, 0, SEGMENT_HEADER_SIZE));
      if ('bad' in header) {
        out.push({ file: path, bytes: size, entries: 0, firstSeq: undefined, lastSeq: undefined, problems: [{ file: path, offset: 0, reason: header.bad, torn: false }] });
        continue;
      }
      if (ref.firstSeq - 1n > prev) prev = ref.firstSeq - 1n;
      const problems: (Problem & { torn: boolean })[] = [];
      let entries = 0;
      let first: bigint | undefined;
      for await (const ev of scanSegment(fh, SEGMENT_HEADER_SIZE, size, prev)) {
        if (ev.type === 'entry') {
          entries++;
          first ??= ev.entry.seq;
          prev = ev.entry.seq;
        } else {
          problems.push({ file: path, offset: ev.offset, reason: ev.reason, torn: ev.torn && i === segments.length - 1 });
        }
      }
      out.push({ file: path, bytes: size, entries, firstSeq: first?.toString(), lastSeq: first === undefined ? undefined : prev.toString(), problems });
    } finally {
      await fh.close();
    }
  }
  return out;
}

function unreadable(file: string, err: unknown): WalSegmentReport {
  return { file, bytes: 0, entries: 0, firstSeq: undefined, lastSeq: undefined, problems: [{ file, offset: 0, reason: `cannot read: ${String(err)}`, torn: false }] };
}

export interface SeriesLogReport {
  readonly db: string;
  readonly file: string;
  readonly bytes: number;
  readonly records: number;
  readonly problems: readonly Problem[];
}

/** The series log of every database directory: record checksums and framing. */
export async function inspectSeriesLogs(dataDir: string): Promise<SeriesLogReport[]> {
  await initChecksum();
  const out: SeriesLogReport[] = [];
  for (const db of await subdirs(dataDir)) {
    const file = join(dataDir, db, SERIES_LOG_FILE);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      out.push({ db: decodeName(db), file, bytes: 0, records: 0, problems: [{ file, offset: 0, reason: `cannot read: ${String(err)}` }] });
      continue;
    }
    const { records, validLength, damage } = decodeRecords(bytes);
    const problems = damage === undefined ? [] : [{ file, offset: validLength, reason: `${damage}; ${bytes.length - validLength} bytes after it unreadable` }];
    out.push({ db: decodeName(db), file, bytes: bytes.length, records: records.length, problems });
  }
  return out;
}

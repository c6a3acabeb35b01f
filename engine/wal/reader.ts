/**
 * Opening a WAL directory: check every segment, repair damage, find the last seq; and
 * streaming replay of the surviving entries.
 *
 * Start-up never fails because of WAL damage (only because of I/O errors on the repair
 * itself). The recovery rules, per segment in seq order:
 *   - leftover `*.tmp` (interrupted segment creation or repair)      → deleted, warned
 *   - 0-byte segment, a directory in its place, or a header with bad magic/version/seq and no
 *     intact record after it                                         → whole file quarantined
 *   - a bad header followed by intact records (a flipped byte in the first sector) → the
 *     header bytes are copied to quarantine and rewritten from the name; records kept
 *   - torn tail of the LAST segment (record cut short, or zeros)     → file truncated at the
 *     last good record, warned; these bytes were never acknowledged
 *   - any other unreadable range (flipped byte, bad length, zeroed page, garbage at the end
 *     of a sealed segment) → the bytes are copied to quarantine/<segment>.corrupt-<offset>,
 *     the segment is rewritten atomically without them, and scanning resumes at the next
 *     valid record, so every intact entry is kept
 * Each warning for quarantined bytes names the seqs they may have held (`lostSeqs`): the
 * acknowledged writes whose points are not replayed. After repair a second open finds nothing to report. Sequence numbers continue after the
 * highest seq seen in a record or implied by a segment name (a quarantined segment named F
 * may have held seqs from F on; reusing them would confuse a flushed-up-to watermark).
 */
import { access, open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { moveFile, removeTempFiles, writeFileAtomic } from '../fs/atomic.js';
import { initChecksum } from '../fs/checksum.js';
import { silentLogger, type EngineLogger } from '../logger.js';
import { QUARANTINE_DIR, SEGMENT_HEADER_SIZE, decodeSegmentHeader, encodeSegmentHeader, isCancel, quarantineFileName } from './record.js';
import type { WalRecord, WalWriteEntry } from './record.js';
import { listSegments } from './segment.js';
import type { SegmentRef } from './segment.js';
import { readAt, scanSegment, type ScanEvent } from './scan.js';
import { StorageIoError } from '../errors.js';
import { makeDirDurable } from '../fs/atomic.js';

export interface RecoveredWal {
  readonly dir: string;
  /** Surviving segments, ascending. */
  readonly segments: readonly SegmentRef[];
  /** Highest seq seen or implied; the next append gets lastSeq + 1. 0n for an empty WAL. */
  readonly lastSeq: bigint;
  /** The last segment when it is intact and can take further appends, with its size. */
  readonly tail: { readonly ref: SegmentRef; readonly size: number } | undefined;
  /** Entries with seq > afterSeq, in seq order, streamed segment by segment. */
  replay(afterSeq?: bigint): AsyncGenerator<WalWriteEntry>;
}

interface Damage {
  readonly offset: number;
  readonly end: number;
  readonly torn: boolean;
  readonly reason: string;
  readonly afterSeq: bigint;
  readonly nextSeq: bigint | undefined;
}

/** Check and repair the WAL in `dir` (created if missing). Does not lock; Wal.open does. */
export async function openWal(dir: string, logger: EngineLogger): Promise<RecoveredWal> {
  await initChecksum();
  let listed: SegmentRef[];
  try {
    await makeDirDurable(dir);
    for (const d of [dir, join(dir, QUARANTINE_DIR)]) {
      for (const name of await removeTempFiles(d)) logger.warn({ dir: d, file: name }, 'removed leftover temp file in WAL directory');
    }
    listed = await listSegments(dir);
  } catch (err) {
    throw StorageIoError.wrap(`cannot open the WAL directory ${dir}`, err);
  }
  const segments: SegmentRef[] = [];
  let lastSeq = 0n;
  let tail: RecoveredWal['tail'];
  for (const [i, ref] of listed.entries()) {
    if (ref.firstSeq - 1n > lastSeq) lastSeq = ref.firstSeq - 1n;
    const isLast = i === listed.length - 1;
    const nextFirstSeq = listed[i + 1]?.firstSeq;
    // An I/O error is not damage: nothing is cut or moved for it (the next start, with the
    // disk answering, finds the segment as it was), and start-up fails naming the segment.
    let checked: Checked;
    try {
      checked = await checkSegment(dir, ref, lastSeq, nextFirstSeq, logger);
    } catch (err) {
      throw StorageIoError.wrap(`cannot open the WAL segment ${join(dir, ref.name)}`, err);
    }
    if (checked === 'quarantined') continue;
    lastSeq = checked.lastSeq;
    segments.push(ref);
    if (isLast) tail = { ref, size: checked.size };
  }
  const snapshot = segments.slice();
  return {
    dir,
    segments: snapshot,
    lastSeq,
    tail,
    replay: (afterSeq = 0n) => replaySegments(dir, snapshot, undefined, afterSeq, logger),
  };
}

/** A segment after its check and repair: its size and the last seq in it, or moved to quarantine whole. */
type Checked = { readonly size: number; readonly lastSeq: bigint } | 'quarantined';

/**
 * Check one segment and apply the recovery rules; `lastSeq` is the highest seq before it,
 * `nextFirstSeq` the first seq of the segment after it (undefined for the last segment).
 */
async function checkSegment(dir: string, ref: SegmentRef, lastSeq: bigint, nextFirstSeq: bigint | undefined, logger: EngineLogger): Promise<Checked> {
  const isLast = nextFirstSeq === undefined;
  const path = join(dir, ref.name);
  if (!(await stat(path)).isFile()) {
    // A directory where a segment belongs (a copy gone wrong) holds no records.
    await quarantineWhole(dir, ref, 0, 'not a file', lostSeqs(ref.firstSeq - 1n, nextFirstSeq), logger);
    return 'quarantined';
  }
  const fh = await open(path, 'r');
  let damages: Damage[];
  let size: number;
  try {
    size = (await fh.stat()).size;
    const header = decodeSegmentHeader(await readAt(fh, 0, SEGMENT_HEADER_SIZE));
    const bad = 'bad' in header ? header.bad : header.firstSeq !== ref.firstSeq ? `header seq ${header.firstSeq} does not match name` : undefined;
    if (bad !== undefined && !(await holdsRecords(fh, size, lastSeq))) {
      await fh.close();
      await quarantineWhole(dir, ref, size, bad, lostSeqs(ref.firstSeq - 1n, nextFirstSeq), logger);
      return 'quarantined';
    }
    // Only the 16 header bytes are damaged: the records carry their own checksums and seqs,
    // and the name says which seq the segment starts at.
    if (bad !== undefined) await replaceHeader(dir, ref, await readAt(fh, 0, SEGMENT_HEADER_SIZE), bad, logger);
    damages = [];
    for await (const ev of scanSegment(fh, SEGMENT_HEADER_SIZE, size, lastSeq)) {
      if (ev.type === 'entry') lastSeq = ev.entry.seq;
      else damages.push(ev);
    }
  } finally {
    await fh.close().catch(() => {});
  }
  size = await repairSegment(dir, ref, size, damages, nextFirstSeq, logger);
  return { size, lastSeq };
}

/** The limit of the segment being appended to: replay reads only bytes already committed. */
export interface ActiveLimit {
  readonly name: string;
  readonly size: number;
}

/**
 * Stream write entries with seq > afterSeq from `segments` (a snapshot), without the ones a
 * cancel record names. Segments deleted by a concurrent truncation are skipped. Damage that
 * appeared after open (a disk going bad) is logged as an error and skipped, never thrown:
 * replay feeds start-up.
 */
export async function* replaySegments(
  dir: string,
  segments: readonly SegmentRef[],
  active: ActiveLimit | undefined,
  afterSeq: bigint,
  logger: EngineLogger,
): AsyncGenerator<WalWriteEntry> {
  // A cancel follows the record it names, possibly segments later: find them all first. The
  // second read of each segment comes from the page cache.
  const cancelled = new Set<bigint>();
  for await (const e of records(dir, segments, active, afterSeq, silentLogger)) if (isCancel(e)) cancelled.add(e.cancels);
  for await (const e of records(dir, segments, active, afterSeq, logger)) if (!isCancel(e) && !cancelled.has(e.seq)) yield e;
}

async function* records(
  dir: string,
  segments: readonly SegmentRef[],
  active: ActiveLimit | undefined,
  afterSeq: bigint,
  logger: EngineLogger,
): AsyncGenerator<WalRecord> {
  for (const [i, ref] of segments.entries()) {
    const next = segments[i + 1];
    if (next !== undefined && next.firstSeq - 1n <= afterSeq) continue;
    const path = join(dir, ref.name);
    let fh: FileHandle;
    try {
      fh = await open(path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw StorageIoError.wrap(`cannot read the WAL segment ${path}`, err);
    }
    try {
      const limit = active?.name === ref.name ? active.size : (await fh.stat()).size;
      const scan = scanSegment(fh, SEGMENT_HEADER_SIZE, limit, ref.firstSeq - 1n);
      for (;;) {
        let next: IteratorResult<ScanEvent>;
        try {
          next = await scan.next();
        } catch (err) {
          throw StorageIoError.wrap(`cannot read the WAL segment ${path}`, err);
        }
        if (next.done) break;
        const ev = next.value;
        if (ev.type === 'entry') {
          if (ev.entry.seq > afterSeq) yield ev.entry;
        } else {
          logger.error({ segment: ref.name, offset: ev.offset, end: ev.end, reason: ev.reason }, 'WAL damage found during replay; skipping unreadable bytes');
        }
      }
    } finally {
      await fh.close();
    }
  }
}

/** Whether a segment whose header is unusable still holds at least one intact record after it. */
async function holdsRecords(fh: FileHandle, size: number, afterSeq: bigint): Promise<boolean> {
  if (size <= SEGMENT_HEADER_SIZE) return false;
  for await (const ev of scanSegment(fh, SEGMENT_HEADER_SIZE, size, afterSeq)) if (ev.type === 'entry') return true;
  return false;
}

/** Keeps the damaged header in quarantine and writes the one the segment's name implies. */
async function replaceHeader(dir: string, ref: SegmentRef, damaged: Buffer, reason: string, logger: EngineLogger): Promise<void> {
  const to = await quarantinePath(dir, ref.name, 0);
  await writeFileAtomic(to, damaged);
  // 16 bytes in the first sector: a crash part-way leaves a header that is still bad, and the
  // next open repeats this repair.
  const fh = await open(join(dir, ref.name), 'r+');
  try {
    const header = encodeSegmentHeader(ref.firstSeq);
    await fh.write(header, 0, header.length, 0);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  logger.warn({ segment: ref.name, offset: 0, bytes: damaged.length, reason, quarantine: to }, 'WAL segment header damaged: rewritten from the segment name, its records kept');
}

async function quarantineWhole(dir: string, ref: SegmentRef, size: number, reason: string, lost: string, logger: EngineLogger): Promise<void> {
  const to = await quarantinePath(dir, ref.name, 0);
  await moveFile(join(dir, ref.name), to);
  logger.warn({ segment: ref.name, offset: 0, bytes: size, reason, lostSeqs: lost, quarantine: to }, 'WAL segment unreadable; moved to quarantine');
}

/** Apply the recovery rules for one scanned segment; returns its size afterwards. */
async function repairSegment(dir: string, ref: SegmentRef, size: number, damages: Damage[], nextFirstSeq: bigint | undefined, logger: EngineLogger): Promise<number> {
  if (damages.length === 0) return size;
  const isLast = nextFirstSeq === undefined;
  const path = join(dir, ref.name);
  const last = damages[damages.length - 1];
  const tornTail = isLast && last !== undefined && last.torn ? last : undefined;
  const corrupt = tornTail ? damages.slice(0, -1) : damages;

  if (corrupt.length === 0 && tornTail) {
    const fh = await open(path, 'r+');
    try {
      await fh.truncate(tornTail.offset);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    logger.warn({ segment: ref.name, offset: tornTail.offset, bytes: size - tornTail.offset, reason: tornTail.reason }, 'WAL torn tail truncated');
    return tornTail.offset;
  }

  // Quarantine first, then publish the rewritten segment: a crash in between repeats the
  // repair on the next open, overwriting the same quarantine file.
  const fh = await open(path, 'r');
  let whole: Buffer;
  try {
    whole = await readAt(fh, 0, size);
  } finally {
    await fh.close();
  }
  const kept: Buffer[] = [];
  let from = 0;
  for (const d of damages) {
    kept.push(whole.subarray(from, d.offset));
    from = d.end;
    if (d === tornTail) {
      logger.warn({ segment: ref.name, offset: d.offset, bytes: d.end - d.offset, reason: d.reason }, 'WAL torn tail truncated');
      continue;
    }
    const to = await quarantinePath(dir, ref.name, d.offset);
    await writeFileAtomic(to, whole.subarray(d.offset, d.end));
    logger.warn(
      { segment: ref.name, offset: d.offset, bytes: d.end - d.offset, reason: d.reason, lostSeqs: lostSeqs(d.afterSeq, d.nextSeq ?? nextFirstSeq), quarantine: to },
      'WAL corruption: unreadable bytes moved to quarantine, later records kept',
    );
  }
  kept.push(whole.subarray(from));
  const repaired = Buffer.concat(kept);
  await writeFileAtomic(path, repaired);
  return repaired.length;
}

/**
 * The seqs damaged bytes may have held, for the operator: those strictly between the intact
 * record before them (`after`) and the one after (`next`, undefined when none follows in the
 * WAL): acknowledged writes (or cancels) that are not replayed. Seqs only grow, so the bytes
 * held at most these; 'none' means they held no record (garbage after the last one).
 */
export function lostSeqs(after: bigint, next: bigint | undefined): string {
  const first = after + 1n;
  if (next === undefined) return `${first} and later`;
  const last = next - 1n;
  if (last < first) return 'none';
  return last === first ? `${first}` : `${first}..${last}`;
}

/**
 * quarantine/<segment>.corrupt-<offset>, with a `.N` suffix when that name is taken: a
 * segment name can come back (a new active segment after the old one was quarantined), and
 * earlier evidence must not be overwritten.
 */
async function quarantinePath(dir: string, segment: string, offset: number): Promise<string> {
  const base = join(dir, QUARANTINE_DIR, quarantineFileName(segment, offset));
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}.${n}`;
    try {
      await access(candidate);
    } catch {
      return candidate;
    }
  }
}

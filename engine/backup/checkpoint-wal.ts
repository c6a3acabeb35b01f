/**
 * WAL checkpoint: copy the segments of a (possibly live) WAL directory, keeping only records
 * that decode with a valid checksum, so the copy replays without a single repair.
 *
 * Reads without the directory lock. That is safe because the writer only appends to the
 * active segment (bytes below its committed size are never rewritten), sealed segments are
 * immutable, and truncation only deletes whole segments:
 * - a record acknowledged before the copy of its segment starts is complete on disk and is
 *   copied; a record being appended meanwhile shows up as a torn tail and is left out;
 * - a segment listed but deleted before it could be opened was truncated: every entry in it
 *   was flushed to a TSM file published *before* the deletion. The data copy runs after this
 *   one (see backup.ts), so it finds those TSM files (or their compaction outputs).
 * - truncation deletes segments from the oldest on, so a segment found deleted means every
 *   segment before it was flushed and deleted too, possibly after it was copied here. Those
 *   copies are dropped: replayed on restore, their entries would go into the cache, which wins
 *   over TSM files, and put back the older value of every timestamp a later, flushed (and no
 *   longer copied) entry rewrote. Found by the SIGKILL torture's live backups: acknowledged
 *   overwrites came back with values written rounds earlier.
 */
import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SEGMENT_HEADER_SIZE, decodeSegmentHeader, encodeSegmentHeader, segmentFileName } from '../wal/record.js';
import { readAt, scanSegment } from '../wal/scan.js';
import { listSegments } from '../wal/segment.js';
import type { EngineLogger } from '../logger.js';

export interface WalCheckpoint {
  /** Segment files written into the target directory. */
  readonly files: readonly string[];
  /** Highest seq in a copied record or implied by a copied segment name (0n for none). */
  readonly lastSeq: bigint;
  readonly entries: number;
  /** Damage inside segments that was left out (not counting the live torn tail). */
  readonly skipped: readonly { readonly segment: string; readonly offset: number; readonly reason: string }[];
}

export async function checkpointWal(
  walDir: string,
  targetDir: string,
  logger: EngineLogger,
  /** Test seam: runs after the segments were listed, before any is opened. */
  afterList?: (names: readonly string[]) => Promise<void>,
  /** Test seam: runs before each listed segment is opened. */
  beforeOpen?: (name: string) => Promise<void>,
): Promise<WalCheckpoint> {
  let segments: Awaited<ReturnType<typeof listSegments>>;
  try {
    segments = await listSegments(walDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], lastSeq: 0n, entries: 0, skipped: [] };
    throw err;
  }
  await afterList?.(segments.map((s) => s.name));
  const files: string[] = [];
  const skipped: { segment: string; offset: number; reason: string }[] = [];
  let lastSeq = 0n;
  let entries = 0;
  for (const [i, ref] of segments.entries()) {
    let fh;
    try {
      await beforeOpen?.(ref.name);
      fh = await open(join(walDir, ref.name), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // Truncated meanwhile: flushed, and so was every segment before it (header above).
      // Its name still bounds the seqs used so far.
      if (ref.firstSeq - 1n > lastSeq) lastSeq = ref.firstSeq - 1n;
      for (const name of files.splice(0)) await rm(join(targetDir, name), { force: true });
      entries = 0;
      continue;
    }
    try {
      const size = (await fh.stat()).size;
      const header = decodeSegmentHeader(await readAt(fh, 0, SEGMENT_HEADER_SIZE));
      if ('bad' in header || header.firstSeq !== ref.firstSeq) {
        logger.warn({ segment: ref.name }, 'backup: WAL segment with a bad header left out');
        skipped.push({ segment: ref.name, offset: 0, reason: 'bad' in header ? header.bad : 'header seq does not match name' });
        continue;
      }
      if (ref.firstSeq - 1n > lastSeq) lastSeq = ref.firstSeq - 1n;
      const parts: Buffer[] = [await readAt(fh, 0, SEGMENT_HEADER_SIZE)];
      const isLast = i === segments.length - 1;
      for await (const ev of scanSegment(fh, SEGMENT_HEADER_SIZE, size, lastSeq)) {
        if (ev.type === 'entry') {
          parts.push(await readAt(fh, ev.offset, ev.size));
          lastSeq = ev.entry.seq;
          entries++;
        } else if (!(isLast && ev.torn)) {
          logger.warn({ segment: ref.name, offset: ev.offset, reason: ev.reason }, 'backup: damaged WAL bytes left out');
          skipped.push({ segment: ref.name, offset: ev.offset, reason: ev.reason });
        }
      }
      await writeFile(join(targetDir, ref.name), Buffer.concat(parts));
      files.push(ref.name);
    } finally {
      await fh.close();
    }
  }
  if (files.length === 0 && lastSeq > 0n) {
    // Every listed segment was truncated: keep the sequence going after a restore, as the
    // empty segment a fully flushed WAL keeps does.
    const name = segmentFileName(lastSeq + 1n);
    await writeFile(join(targetDir, name), encodeSegmentHeader(lastSeq + 1n));
    files.push(name);
  }
  return { files, lastSeq, entries, skipped };
}

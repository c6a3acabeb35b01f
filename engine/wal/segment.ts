/**
 * WAL segment files: listing, creating and the append handle of the active segment.
 * Names and the header layout come from record.ts. A segment is named after the first seq
 * that may be written into it, so (name of segment i+1) - 1 bounds every seq in segment i:
 * truncation and replay decide from names alone, without opening sealed segments.
 */
import { open, readdir } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { writeAt } from '../fs/write-at.js';
import { SEGMENT_HEADER_SIZE, encodeSegmentHeader, parseSegmentFileName, segmentFileName } from './record.js';

export interface SegmentRef {
  readonly firstSeq: bigint;
  readonly name: string;
}

/** Segment files in `dir`, ascending by first seq. Other files (LOCK, quarantine/) are ignored. */
export async function listSegments(dir: string): Promise<SegmentRef[]> {
  const out: SegmentRef[] = [];
  for (const name of await readdir(dir)) {
    const firstSeq = parseSegmentFileName(name);
    if (firstSeq !== undefined) out.push({ firstSeq, name });
  }
  return out.sort((a, b) => (a.firstSeq < b.firstSeq ? -1 : a.firstSeq > b.firstSeq ? 1 : 0));
}

/**
 * The two syscalls of the commit path, injectable so tests can make them fail. Both must
 * either complete or throw; a short write is reported as an error by the default.
 */
export interface SegmentIo {
  write(fh: FileHandle, bytes: Uint8Array, position: number): Promise<void>;
  datasync(fh: FileHandle): Promise<void>;
}

export const defaultSegmentIo: SegmentIo = {
  write: writeAt,
  datasync: (fh) => fh.datasync(),
};

/** The segment currently appended to. `size` counts only bytes that were written and synced. */
export class ActiveSegment {
  private constructor(
    readonly ref: SegmentRef,
    readonly path: string,
    private readonly fh: FileHandle,
    private committed: number,
  ) {}

  /**
   * Create `<firstSeq>.wal` holding only its header, published atomically (tmp, fsync,
   * rename, fsync dir) so a crash never leaves a segment with a half-written header.
   */
  static async create(dir: string, firstSeq: bigint): Promise<ActiveSegment> {
    const name = segmentFileName(firstSeq);
    await writeFileAtomic(join(dir, name), encodeSegmentHeader(firstSeq));
    return ActiveSegment.open(dir, { firstSeq, name }, SEGMENT_HEADER_SIZE);
  }

  /** Reopen an existing, already validated segment to append after its `size` good bytes. */
  static async open(dir: string, ref: SegmentRef, size: number): Promise<ActiveSegment> {
    const path = join(dir, ref.name);
    const fh = await open(path, 'r+');
    return new ActiveSegment(ref, path, fh, size);
  }

  get size(): number {
    return this.committed;
  }

  get isEmpty(): boolean {
    return this.committed <= SEGMENT_HEADER_SIZE;
  }

  /** Write `bytes` at the end and fdatasync; on success they count towards `size`. */
  async append(bytes: Uint8Array, io: SegmentIo): Promise<void> {
    await io.write(this.fh, bytes, this.committed);
    await io.datasync(this.fh);
    this.committed += bytes.length;
  }

  /** Drop anything past the committed size (the bytes of a failed group). */
  async discardUncommitted(): Promise<void> {
    await this.fh.truncate(this.committed);
    await this.fh.datasync();
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

/**
 * Streaming scan of one segment's records. Reads in chunks (never the whole segment on the
 * good path), verifies every record and reports damage instead of throwing, so both the
 * open-time repair and replay decide what to do with it.
 *
 * Damage handling follows Prometheus' wlog and InfluxDB's WAL reader, with one addition:
 * instead of dropping everything after the first bad record we resynchronise on the next
 * record that decodes with a valid checksum and a larger seq, so one flipped byte costs one
 * record, not the rest of the segment.
 */
import type { FileHandle } from 'node:fs/promises';
import { StorageIoError } from '../errors.js';
import { RECORD_HEADER_SIZE, RECORD_MAGIC, checkRecordHeader, decodeRecord } from './record.js';
import type { WalRecord } from './record.js';

/** Read granularity of the good path. */
const CHUNK_BYTES = 1 << 20;

export type ScanEvent =
  | { readonly type: 'entry'; readonly offset: number; readonly size: number; readonly entry: WalRecord }
  | {
      readonly type: 'damage';
      /** First unreadable byte. */
      readonly offset: number;
      /** Where the next good record starts, or the scan limit when none follows. */
      readonly end: number;
      /**
       * True when nothing good follows and the bytes look like an interrupted append (a
       * record cut short by the end of the file, or only zeros): a torn tail, not corruption.
       */
      readonly torn: boolean;
      readonly reason: string;
      /** Seq of the last intact record before the damage (the scan's `afterSeq` when none). */
      readonly afterSeq: bigint;
      /** Seq of the intact record the scan resumes at; undefined when none follows in the segment. */
      readonly nextSeq: bigint | undefined;
    };

/**
 * Scan records in `[start, limit)` of an open segment. Records must carry seqs strictly
 * above `afterSeq` and increasing; one that does not is reported as damage. Entries' `lines`
 * are views into freshly allocated read buffers, valid for as long as the caller keeps them.
 */
export async function* scanSegment(fh: FileHandle, start: number, limit: number, afterSeq: bigint): AsyncGenerator<ScanEvent> {
  const reader = new ChunkReader(fh, limit);
  let pos = start;
  let prev = afterSeq;
  while (pos < limit) {
    let reason: string;
    let cutShort = false;
    if (limit - pos < RECORD_HEADER_SIZE) {
      reason = 'partial record header at end of segment';
      cutShort = true;
    } else {
      const head = await reader.view(pos, RECORD_HEADER_SIZE);
      const check = checkRecordHeader(head.bytes, head.at);
      if (!check.ok) {
        reason = check.reason;
      } else if (pos + check.size > limit) {
        reason = `record of ${check.size} bytes extends past end of segment`;
        cutShort = true;
      } else {
        const rec = await reader.view(pos, check.size);
        const d = decodeRecord(rec.bytes, rec.at);
        if (d.status === 'ok' && d.entry.seq > prev) {
          yield { type: 'entry', offset: pos, size: d.size, entry: d.entry };
          prev = d.entry.seq;
          pos += d.size;
          continue;
        }
        reason = d.status === 'bad' ? d.reason : d.status === 'ok' ? `seq ${d.entry.seq} not above ${prev}` : 'short record';
      }
    }
    const sync = await resync(fh, pos, limit, prev);
    const torn = sync.next === undefined && (cutShort || sync.restIsZero);
    yield { type: 'damage', offset: pos, end: sync.next ?? limit, torn, reason, afterSeq: prev, nextSeq: sync.seq };
    if (sync.next === undefined) return;
    pos = sync.next;
  }
}

/**
 * Find the first offset after `from` where a complete, valid record with seq > `prev`
 * starts. Rare path: reads the rest of the segment (bounded by the segment size) at once.
 */
async function resync(fh: FileHandle, from: number, limit: number, prev: bigint): Promise<{ next: number | undefined; seq: bigint | undefined; restIsZero: boolean }> {
  const rest = await readAt(fh, from, limit - from);
  const restIsZero = rest.every((b) => b === 0);
  let i = rest.indexOf(RECORD_MAGIC, 1);
  while (i !== -1) {
    const d = decodeRecord(rest, i);
    if (d.status === 'ok' && d.entry.seq > prev) return { next: from + i, seq: d.entry.seq, restIsZero };
    i = rest.indexOf(RECORD_MAGIC, i + 1);
  }
  return { next: undefined, seq: undefined, restIsZero };
}

export async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (bytesRead === 0) return buf.subarray(0, done);
    done += bytesRead;
  }
  return buf;
}

/** A window onto the file; refills allocate a new buffer so earlier views stay valid. */
class ChunkReader {
  private buf: Buffer = Buffer.alloc(0);
  private bufStart = 0;

  constructor(
    private readonly fh: FileHandle,
    private readonly limit: number,
  ) {}

  /** Bytes `[pos, pos + n)` as `bytes[at .. at + n)`; the caller guarantees pos + n <= limit. */
  async view(pos: number, n: number): Promise<{ bytes: Buffer; at: number }> {
    if (pos < this.bufStart || pos + n > this.bufStart + this.buf.length) {
      this.buf = await readAt(this.fh, pos, Math.min(Math.max(n, CHUNK_BYTES), this.limit - pos));
      this.bufStart = pos;
      // Only bytes below the limit are read, and those are never rewritten while scanned.
      if (this.buf.length < n) throw new StorageIoError(`segment shrank while being read (offset ${pos})`);
    }
    return { bytes: this.buf, at: pos - this.bufStart };
  }
}

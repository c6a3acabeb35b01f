/**
 * WAL on-disk format: segment files, their header, and the framed records inside them.
 * This file owns every magic number, size and file name of the WAL; nothing else in
 * engine/wal/ spells one. All integers are little-endian.
 *
 *   <wal dir>/
 *     00000000000000000001.wal      segment; the name is the 20-digit seq of its first record
 *     00000000000000004711.wal      (20 digits hold every u64, so names sort like seqs)
 *     quarantine/<segment>.corrupt-<offset>   unreadable bytes moved aside at open
 *
 *   Segment file
 *   +------------------------------------------------------------------+
 *   | header (16 B) | record | record | ... | record                    |
 *   +------------------------------------------------------------------+
 *   header: 0  4  magic     F5 'S' 'E' 'G'
 *           4  1  version   1
 *           5  3  reserved  zero
 *           8  8  firstSeq  u64, equals the file name; every record in the file has seq >= it
 *
 *   Record (28 B header + body)
 *   +-------+----------+------+--------+--------+-------+----------------+
 *   | magic | checksum | kind | resv 3 | length | seq   | body           |
 *   | 4 B   | 8 B      | 1 B  | zero   | u32    | u64   | `length` bytes |
 *   +-------+----------+------+--------+--------+-------+----------------+
 *   0       4          12     13       16       20      28
 *   magic     F5 'R' 'E' 'C'. 0xF5 never occurs in UTF-8, so it cannot appear inside the
 *             line-protocol text that fills most bodies: resynchronising after damage by
 *             searching for it rarely stops on a false candidate.
 *   checksum  xxhash64 of bytes [12, 28 + length): kind, length, seq and body. It follows
 *             the magic so the covered bytes are contiguous (one hash call, no copy).
 *   kind      1 = write, 2 = cancel. An unknown kind is damage.
 *
 *   Write body (kind 1)
 *   +------------+-------------+-----------+------+-------+-------+----+----+-------+
 *   | defaultSec | defaultNsec | precision | resv | dbLen | rpLen | db | rp | lines |
 *   | i64        | u32         | u8        | 1 B  | u16   | u16   |    |    | rest  |
 *   +------------+-------------+-----------+------+-------+-------+----+----+-------+
 *   0            8             12          13     14      16      18
 *   precision codes: 0 ns, 1 us, 2 ms, 3 s, 4 m, 5 h. db, rp: UTF-8. lines: line-protocol
 *   bytes, re-parsed on replay (so the ack path is a memcpy).
 *
 *   Cancel body (kind 2)
 *   +--------+
 *   | target |   u64: the seq of an earlier write record that replay must skip
 *   +--------+
 *   A client's body is logged while it is parsed, before the server knows whether every line
 *   will be kept; when some are refused, that record is cancelled and the kept points are
 *   logged again in a record of their own (engine/write/ordered-log.ts).
 */
import { checksum64 } from '../fs/checksum.js';
import { InvalidRequestError } from '../errors.js';
import type { Precision } from '../point.js';

export const SEGMENT_MAGIC = Uint8Array.of(0xf5, 0x53, 0x45, 0x47);
export const SEGMENT_VERSION = 1;
export const SEGMENT_HEADER_SIZE = 16;
export const SEGMENT_SUFFIX = '.wal';
export const QUARANTINE_DIR = 'quarantine';
/** Default roll size (spec has no key; engine options may override). */
export const DEFAULT_SEGMENT_SIZE_BYTES = 16 * 1024 * 1024;
/** Smallest roll size accepted; below it nearly every group would start a segment. */
export const MIN_SEGMENT_SIZE_BYTES = 1024;

export const RECORD_MAGIC = Uint8Array.of(0xf5, 0x52, 0x45, 0x43);
export const RECORD_HEADER_SIZE = 28;
/** Largest body accepted; also what makes a corrupted length field recognisable. */
export const MAX_RECORD_BODY = 1 << 30;
export const RecordKind = { Write: 1, Cancel: 2 } as const;

const CHECKSUM_AT = 4;
const COVERED_FROM = 12;
const LENGTH_AT = 16;
const SEQ_AT = 20;
const WRITE_FIXED_SIZE = 18;
const CANCEL_BODY_SIZE = 8;
const MAX_NAME_BYTES = 0xffff;
const SEQ_DIGITS = 20;
const MAX_U64 = 0xffff_ffff_ffff_ffffn;

const PRECISIONS: readonly Precision[] = ['ns', 'us', 'ms', 's', 'm', 'h'];

/** One logged write: raw line protocol plus what is needed to parse it identically on replay. */
export interface WalWriteEntry {
  /** u64, strictly increasing, assigned at append. */
  readonly seq: bigint;
  readonly db: string;
  readonly rp: string;
  readonly precision: Precision;
  /** Server time for lines without a timestamp: whole seconds since the epoch. */
  readonly defaultSec: number;
  /** 0..999_999_999. */
  readonly defaultNsec: number;
  /** Line-protocol bytes of the accepted lines. */
  readonly lines: Uint8Array;
}

/** A cancel record: the write record `cancels` is not to be replayed. */
export interface WalCancelEntry {
  readonly seq: bigint;
  readonly cancels: bigint;
}

/** Any record of the WAL. */
export type WalRecord = WalWriteEntry | WalCancelEntry;

/** What a caller hands to append(); the WAL assigns the seq. */
export type WalAppend = WalWriteAppend | Omit<WalCancelEntry, 'seq'>;
export type WalWriteAppend = Omit<WalWriteEntry, 'seq'>;

export function isCancel<T extends WalAppend | WalRecord>(entry: T): entry is Extract<T, { cancels: bigint }> {
  return 'cancels' in entry;
}

export function segmentFileName(firstSeq: bigint): string {
  return firstSeq.toString().padStart(SEQ_DIGITS, '0') + SEGMENT_SUFFIX;
}

/** First seq encoded in a segment file name, or undefined when `name` is not a segment. */
export function parseSegmentFileName(name: string): bigint | undefined {
  if (name.length !== SEQ_DIGITS + SEGMENT_SUFFIX.length || !name.endsWith(SEGMENT_SUFFIX)) return undefined;
  const digits = name.slice(0, SEQ_DIGITS);
  if (!/^[0-9]+$/.test(digits)) return undefined;
  const seq = BigInt(digits);
  return seq <= MAX_U64 ? seq : undefined;
}

export function quarantineFileName(segmentName: string, offset: number): string {
  return `${segmentName}.corrupt-${offset}`;
}

export function encodeSegmentHeader(firstSeq: bigint): Uint8Array {
  const out = new Uint8Array(SEGMENT_HEADER_SIZE);
  out.set(SEGMENT_MAGIC, 0);
  out[4] = SEGMENT_VERSION;
  new DataView(out.buffer).setBigUint64(8, firstSeq, true);
  return out;
}

/** The header's first seq, or the reason the header is unusable. */
export function decodeSegmentHeader(bytes: Uint8Array): { firstSeq: bigint } | { bad: string } {
  if (bytes.length < SEGMENT_HEADER_SIZE) return { bad: `short header (${bytes.length} bytes)` };
  if (!startsWith(bytes, 0, SEGMENT_MAGIC)) return { bad: 'bad segment magic' };
  if (bytes[4] !== SEGMENT_VERSION) return { bad: `unsupported segment version ${bytes[4]}` };
  if (bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) return { bad: 'reserved header bytes not zero' };
  return { firstSeq: view(bytes).getBigUint64(8, true) };
}

/** Encoded size of a write record; throws InvalidRequestError for entries the format cannot hold. */
export function writeRecordSize(entry: WalAppend): number {
  if (isCancel(entry)) return RECORD_HEADER_SIZE + CANCEL_BODY_SIZE;
  const db = Buffer.byteLength(entry.db, 'utf8');
  const rp = Buffer.byteLength(entry.rp, 'utf8');
  if (db > MAX_NAME_BYTES || rp > MAX_NAME_BYTES) throw new InvalidRequestError('database or retention policy name too long for the WAL');
  if (!PRECISIONS.includes(entry.precision)) throw new InvalidRequestError(`unknown precision ${String(entry.precision)}`);
  if (!Number.isSafeInteger(entry.defaultSec)) throw new InvalidRequestError('defaultSec must be a safe integer');
  if (!Number.isInteger(entry.defaultNsec) || entry.defaultNsec < 0 || entry.defaultNsec > 999_999_999) {
    throw new InvalidRequestError('defaultNsec must be in 0..999999999');
  }
  const body = WRITE_FIXED_SIZE + db + rp + entry.lines.length;
  if (body > MAX_RECORD_BODY) throw new InvalidRequestError(`WAL entry of ${body} bytes exceeds ${MAX_RECORD_BODY}`);
  return RECORD_HEADER_SIZE + body;
}

/**
 * Encode a write record at `target[offset]`; `target` must have writeRecordSize(entry) bytes
 * free there. Returns the offset just past the record. Append-style so a commit group is
 * one buffer, one write().
 */
export function encodeRecordInto(target: Buffer, offset: number, seq: bigint, entry: WalAppend): number {
  if (isCancel(entry)) {
    view(target).setBigUint64(offset + RECORD_HEADER_SIZE, entry.cancels, true);
    return sealRecord(target, offset, offset + RECORD_HEADER_SIZE + CANCEL_BODY_SIZE, RecordKind.Cancel, seq);
  }
  const dv = view(target);
  const dbLen = target.write(entry.db, offset + RECORD_HEADER_SIZE + WRITE_FIXED_SIZE, 'utf8');
  const rpLen = target.write(entry.rp, offset + RECORD_HEADER_SIZE + WRITE_FIXED_SIZE + dbLen, 'utf8');
  const linesAt = offset + RECORD_HEADER_SIZE + WRITE_FIXED_SIZE + dbLen + rpLen;
  target.set(entry.lines, linesAt);
  const end = linesAt + entry.lines.length;
  const b = offset + RECORD_HEADER_SIZE;
  dv.setBigInt64(b, BigInt(entry.defaultSec), true);
  dv.setUint32(b + 8, entry.defaultNsec, true);
  target[b + 12] = PRECISIONS.indexOf(entry.precision);
  target[b + 13] = 0;
  dv.setUint16(b + 14, dbLen, true);
  dv.setUint16(b + 16, rpLen, true);
  return sealRecord(target, offset, end, RecordKind.Write, seq);
}

/** Write the header of the record whose body is already at `target[offset + 28 .. end)`; returns `end`. */
function sealRecord(target: Buffer, offset: number, end: number, kind: number, seq: bigint): number {
  const dv = view(target);
  target.set(RECORD_MAGIC, offset);
  target[offset + COVERED_FROM] = kind;
  target.fill(0, offset + COVERED_FROM + 1, offset + LENGTH_AT);
  dv.setUint32(offset + LENGTH_AT, end - offset - RECORD_HEADER_SIZE, true);
  dv.setBigUint64(offset + SEQ_AT, seq, true);
  dv.setBigUint64(offset + CHECKSUM_AT, checksum64(target.subarray(offset + COVERED_FROM, end)), true);
  return end;
}

/** Encode one record into a fresh buffer (tests, tools; the writer uses encodeRecordInto). */
export function encodeRecord(entry: WalRecord): Uint8Array {
  const out = Buffer.allocUnsafe(writeRecordSize(entry));
  encodeRecordInto(out, 0, entry.seq, entry);
  return out;
}

export type RecordHeaderCheck = { ok: true; size: number } | { ok: false; reason: string };

/** Validate the fixed header at `bytes[offset]` (28 bytes present) and return the full record size. */
export function checkRecordHeader(bytes: Uint8Array, offset: number): RecordHeaderCheck {
  if (!startsWith(bytes, offset, RECORD_MAGIC)) return { ok: false, reason: 'bad record magic' };
  const length = view(bytes).getUint32(offset + LENGTH_AT, true);
  const least = bytes[offset + COVERED_FROM] === RecordKind.Cancel ? CANCEL_BODY_SIZE : WRITE_FIXED_SIZE;
  if (length > MAX_RECORD_BODY || length < least) return { ok: false, reason: `implausible record length ${length}` };
  return { ok: true, size: RECORD_HEADER_SIZE + length };
}

export type DecodeResult =
  | { status: 'ok'; entry: WalRecord; size: number }
  /** The record continues past the end of `bytes`; `size` is its full size when known. */
  | { status: 'short'; size: number | undefined }
  | { status: 'bad'; reason: string };

/**
 * Decode the record at `bytes[offset]`. The returned entry's `lines` is a view into `bytes`
 * (no copy): callers that reuse `bytes` must copy first.
 */
export function decodeRecord(bytes: Uint8Array, offset: number): DecodeResult {
  if (bytes.length - offset < RECORD_HEADER_SIZE) return { status: 'short', size: undefined };
  const head = checkRecordHeader(bytes, offset);
  if (!head.ok) return { status: 'bad', reason: head.reason };
  const end = offset + head.size;
  if (end > bytes.length) return { status: 'short', size: head.size };
  const dv = view(bytes);
  const sum = checksum64(bytes.subarray(offset + COVERED_FROM, end));
  if (sum !== dv.getBigUint64(offset + CHECKSUM_AT, true)) return { status: 'bad', reason: 'checksum mismatch' };
  const kind = bytes[offset + COVERED_FROM];
  const b = offset + RECORD_HEADER_SIZE;
  const seq = dv.getBigUint64(offset + SEQ_AT, true);
  if (kind === RecordKind.Cancel) {
    if (head.size !== RECORD_HEADER_SIZE + CANCEL_BODY_SIZE) return { status: 'bad', reason: `cancel record of ${head.size} bytes` };
    return { status: 'ok', entry: { seq, cancels: dv.getBigUint64(b, true) }, size: head.size };
  }
  if (kind !== RecordKind.Write) return { status: 'bad', reason: `unknown record kind ${kind}` };

  const precision = PRECISIONS[bytes[b + 12] ?? 0xff];
  const dbLen = dv.getUint16(b + 14, true);
  const rpLen = dv.getUint16(b + 16, true);
  const dbAt = b + WRITE_FIXED_SIZE;
  const linesAt = dbAt + dbLen + rpLen;
  if (precision === undefined) return { status: 'bad', reason: `unknown precision code ${bytes[b + 12]}` };
  if (linesAt > end) return { status: 'bad', reason: 'name lengths exceed record' };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entry: WalWriteEntry = {
    seq,
    db: text.toString('utf8', dbAt, dbAt + dbLen),
    rp: text.toString('utf8', dbAt + dbLen, linesAt),
    precision,
    defaultSec: Number(dv.getBigInt64(b, true)),
    defaultNsec: dv.getUint32(b + 8, true),
    lines: bytes.subarray(linesAt, end),
  };
  return { status: 'ok', entry, size: head.size };
}

function startsWith(bytes: Uint8Array, offset: number, magic: Uint8Array): boolean {
  for (let i = 0; i < magic.length; i++) if (bytes[offset + i] !== magic[i]) return false;
  return true;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The TSM file format: every magic number, size, version and file-name rule lives here.
 *
 * A TSM file is immutable once published. It holds, for many keys, time-ordered blocks of
 * encoded values whose payload this layer treats as opaque bytes (engine/encoding owns them).
 * All integers are big-endian (as InfluxDB's tsm1), signed where noted.
 *
 * offset  size  field
 * ┌─ header ─────────────────────────────────────────────── HEADER_SIZE = 8 ───────────────────┐
 * │ 0       4     magic        "STSM" (0x5354534d)                                             │
 * │ 4       1     version      2 (written); 1 and 2 are read                                   │
 * │ 5       1     level        compaction level (0 = flushed from the cache)                   │
 * │ 6       2     reserved     0                                                               │
 * ├─ blocks, back to back, in index order ─────────────────────────────────────────────────────┤
 * │ +0      4     checksum     low 32 bits of xxhash64(payload)                                │
 * │ +4      size  payload      opaque encoded values (engine/encoding)                         │
 * ├─ index: key records, keys strictly ascending in UTF-8 byte order (Buffer.compare) ─────────┤
 * │ version 2: see "Index, version 2" below. Version 1 (read only):                            │
 * │ +0      2     keyLen       1..65535                                                        │
 * │ +2      n     key          UTF-8 `<series key>#!~#<field>`                                 │
 * │ +2+n    1     type         FieldType code (0 float … 4 unsigned), one type per key         │
 * │ +3+n    4     entryCount   ≥ 1                                                             │
 * │ +7+n    32×c  entries      ascending, non-overlapping in time; each ENTRY_SIZE = 32:       │
 * │                 +0 minTime i64 · +8 maxTime i64 (ns, inclusive) · +16 offset u64 (of the   │
 * │                 block's checksum) · +24 size u32 (payload bytes) · +28 count u32 (values)  │
 * ├─ footer ─────────────────────────────────────────────── FOOTER_SIZE = 40 ──────────────────┤
 * │ 0       8     indexOffset  file offset of the first index byte                             │
 * │ 8       8     indexSize    indexOffset + indexSize + FOOTER_SIZE = file size               │
 * │ 16      4     keyCount     ≥ 1                                                             │
 * │ 20      4     blockCount   total entries in the index                                      │
 * │ 24      8     indexChecksum   xxhash64(index)                                              │
 * │ 32      4     footerChecksum  low 32 bits of xxhash64(header ‖ footer[0..32))              │
 * │ 36      4     magic        "STSM" again: a torn or truncated tail fails here first         │
 * └────────────────────────────────────────────────────────────────────────────────────────────┘
 *
 * Index, version 2. Key records back to back; `uv` = unsigned LEB128 (≤ 10 bytes), `sv` =
 * zigzag LEB128 (engine/encoding/varint.ts), i64 arithmetic wraps modulo 2^64:
 *
 *   key record    uv shared      bytes shared with the previous key (0 for the first key)
 *                 uv suffixLen   the key is previous[0, shared) ‖ suffix; total 1..65535 bytes
 *                 suffix         suffixLen bytes
 *                 u8 type        FieldType code
 *                 u8 scale       0..18: the key's spans and gaps below are in units u = 10^scale ns
 *                                (the writer picks the largest that divides them all: 10 s data
 *                                has scale 10, so a span of 9,990 s takes 2 bytes, not 7)
 *                 uv entryCount  ≥ 1
 *                 entries        entryCount × entry
 *   entry         sv|uv minTime  first entry of a key: sv (minTime − anchor) in ns, anchor = the
 *                                previous key's first minTime (0 for the first key); later
 *                                entries: uv ((minTime − previous maxTime) / u − 1), so blocks
 *                                cannot overlap
 *                 uv span        (maxTime − minTime) / u
 *                 uv size        payload bytes ≥ 1
 *                 uv countFlag   count × 2 + hasStats, count ≥ 1
 *                 stats          only when hasStats (block-stats.ts says which types have them):
 *                                uv minIndex, uv maxIndex (< count), then
 *                                float:    f64 min, f64 max (big-endian IEEE 754, min ≤ max)
 *                                integer:  sv min, uv (max − min), sv sum
 *                                unsigned: uv min, uv (max − min), uv sum
 *
 * Block offsets are implied: blocks are written in index order, back to back from
 * HEADER_SIZE, so entry k starts where entry k − 1 ended (+ BLOCK_CHECKSUM_SIZE + size) and
 * the last one ends exactly at indexOffset (checked at open). Compared with version 1
 * (32 bytes per entry plus the full key), a typical entry of a 1000-value block takes ~6
 * bytes plus ~9 bytes of stats, and series-field keys of one series share all but the field.
 *
 * Why these choices:
 * - The footer is at a fixed distance from the end, so open needs three positional reads
 *   (header, footer, index) and never reads the blocks. A truncated or extended file loses its
 *   trailing magic; a footer whose lengths disagree with the file size fails the size equation
 *   before the index is parsed.
 * - The index carries one 64-bit checksum (a million-key index is tens of MB; a 32-bit sum would
 *   be too weak); each block carries 32 bits, enough for a ≤ 1000-value payload and 4 bytes
 *   cheaper per block. The footer checksum also covers the header, so a flipped level or
 *   version byte is detected too.
 * - A block's checksum is stored in front of it rather than in the index so a block can be
 *   verified from one contiguous read of `BLOCK_CHECKSUM_SIZE + size` bytes at `offset`.
 * - Empty files do not exist: a writer with no blocks refuses `finish()` (the caller aborts
 *   it instead) and a reader rejects a zero-key file as corrupt. So keyRange and timeRange of
 *   every open file are defined.
 *
 * Keys are `<series key><KEY_FIELD_SEPARATOR><field name>` as in InfluxDB 1.x. The separator
 * is split at its first occurrence, so a series key containing it is ambiguous; the series
 * layer must reject such keys at write time (InfluxDB has the same limit).
 */

import { FieldType } from '../point.js';

/** "STSM" in ASCII: distinguishes our files from InfluxDB's tsm1 (0x16D116D1). */
export const MAGIC = 0x5354534d;
/** Version written. */
export const VERSION = 2;
/** The original index layout (fixed 32-byte entries, full keys, no stats); still read. */
export const VERSION_1 = 1;

export function isReadableVersion(v: number): boolean {
  return v === VERSION_1 || v === VERSION;
}

export const HEADER_SIZE = 8;
export const HEADER_MAGIC_OFFSET = 0;
export const HEADER_VERSION_OFFSET = 4;
export const HEADER_LEVEL_OFFSET = 5;
export const HEADER_RESERVED_OFFSET = 6;
/** Compaction levels are stored in one byte. */
export const MAX_LEVEL = 0xff;

/** Bytes of checksum in front of every block payload. */
export const BLOCK_CHECKSUM_SIZE = 4;

// ── version 1 index records ───────────────────────────────────────────────────────────────
/** Key records: u16 length in front of the key, then type u8 and entryCount u32 after it. */
export const KEY_LENGTH_SIZE = 2;
export const MAX_KEY_BYTES = 0xffff;
export const KEY_TRAILER_SIZE = 5;
export const MAX_ENTRIES_PER_KEY = 0xffffffff;

export const ENTRY_SIZE = 32;
export const ENTRY_MIN_TIME_OFFSET = 0;
export const ENTRY_MAX_TIME_OFFSET = 8;
export const ENTRY_OFFSET_OFFSET = 16;
export const ENTRY_SIZE_OFFSET = 24;
export const ENTRY_COUNT_OFFSET = 28;
/** size and count are u32. */
export const MAX_U32 = 0xffffffff;

export const FOOTER_SIZE = 40;
export const FOOTER_INDEX_OFFSET_OFFSET = 0;
export const FOOTER_INDEX_SIZE_OFFSET = 8;
export const FOOTER_KEY_COUNT_OFFSET = 16;
export const FOOTER_BLOCK_COUNT_OFFSET = 20;
export const FOOTER_INDEX_CHECKSUM_OFFSET = 24;
export const FOOTER_CHECKSUM_OFFSET = 32;
export const FOOTER_MAGIC_OFFSET = 36;

/**
 * Smallest well-formed file: header, one 1-byte block, the smallest key record of either
 * version (v2: shared, suffixLen, 1 key byte, type, scale, entryCount, minTime, span, size,
 * countFlag: 10 bytes), footer.
 */
export const MIN_INDEX_SIZE = 10;
export const MIN_FILE_SIZE = HEADER_SIZE + BLOCK_CHECKSUM_SIZE + 1 + MIN_INDEX_SIZE + FOOTER_SIZE;

const FIELD_TYPE_CODES: ReadonlySet<number> = new Set(Object.values(FieldType));

/** Field type codes (engine/point.ts) are InfluxDB's block types and part of the format. */
export function isFieldTypeCode(code: number): code is FieldType {
  return FIELD_TYPE_CODES.has(code);
}

/** Separator between series key and field name inside a TSM key (InfluxDB 1.x's). */
export const KEY_FIELD_SEPARATOR = '#!~#';

export function compositeKey(seriesKey: string, field: string): string {
  return seriesKey + KEY_FIELD_SEPARATOR + field;
}

/** Splits at the first separator; `null` when the key has none. */
export function splitCompositeKey(key: string): { seriesKey: string; field: string } | null {
  const at = key.indexOf(KEY_FIELD_SEPARATOR);
  if (at < 0) return null;
  return { seriesKey: key.slice(0, at), field: key.slice(at + KEY_FIELD_SEPARATOR.length) };
}

// ── file names ─────────────────────────────────────────────────────────────────────────────
// `<generation, 9 digits>-<sequence, 9 digits>.tsm`. A flush starts a new generation at
// sequence 1; a compaction names its output after the newest input generation with a higher
// sequence. Files are ordered by (generation, sequence); later files win duplicate timestamps.

export const TSM_EXTENSION = '.tsm';
export const NAME_DIGITS = 9;
export const MAX_NAME_NUMBER = 999_999_999;
/** Subdirectory of a shard directory that receives files failing validation. */
export const QUARANTINE_DIR = 'quarantine';

const NAME_RE = /^(\d{9})-(\d{9})\.tsm$/;

export interface TsmFileId {
  readonly generation: number;
  readonly sequence: number;
}

export function tsmFileName(id: TsmFileId): string {
  const pad = (n: number) => String(n).padStart(NAME_DIGITS, '0');
  return `${pad(id.generation)}-${pad(id.sequence)}${TSM_EXTENSION}`;
}

/** Parses a base name; `null` for anything that is not exactly a TSM file name. */
export function parseTsmFileName(name: string): TsmFileId | null {
  const m = NAME_RE.exec(name);
  if (!m || m[1] === undefined || m[2] === undefined) return null;
  return { generation: Number(m[1]), sequence: Number(m[2]) };
}

/** Ordering of files: older first, so iterating in order lets later files overwrite. */
export function compareFileIds(a: TsmFileId, b: TsmFileId): number {
  return a.generation - b.generation || a.sequence - b.sequence;
}

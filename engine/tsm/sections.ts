/**
 * Codec of the fixed-size sections of a TSM file, header and footer (layout in format.ts).
 * Decoding validates everything a reader needs before it trusts the index location:
 * magics, version, reserved bytes, the footer checksum (which also covers the header) and the
 * size equation indexOffset + indexSize + FOOTER_SIZE = file size.
 */
import { CorruptionError } from '../errors.js';
import { checksum32 } from '../fs/checksum.js';
import {
  FOOTER_BLOCK_COUNT_OFFSET,
  FOOTER_CHECKSUM_OFFSET,
  FOOTER_INDEX_CHECKSUM_OFFSET,
  FOOTER_INDEX_OFFSET_OFFSET,
  FOOTER_INDEX_SIZE_OFFSET,
  FOOTER_KEY_COUNT_OFFSET,
  FOOTER_MAGIC_OFFSET,
  FOOTER_SIZE,
  HEADER_LEVEL_OFFSET,
  HEADER_MAGIC_OFFSET,
  HEADER_RESERVED_OFFSET,
  HEADER_SIZE,
  HEADER_VERSION_OFFSET,
  MAGIC,
  MIN_FILE_SIZE,
  VERSION,
  isReadableVersion,
} from './format.js';

export interface Footer {
  readonly indexOffset: number;
  readonly indexSize: number;
  readonly keyCount: number;
  readonly blockCount: number;
  readonly indexChecksum: bigint;
}

export function encodeHeader(level: number): Uint8Array {
  const out = new Uint8Array(HEADER_SIZE);
  const v = new DataView(out.buffer);
  v.setUint32(HEADER_MAGIC_OFFSET, MAGIC);
  v.setUint8(HEADER_VERSION_OFFSET, VERSION);
  v.setUint8(HEADER_LEVEL_OFFSET, level);
  v.setUint16(HEADER_RESERVED_OFFSET, 0);
  return out;
}

export function encodeFooter(header: Uint8Array, f: Footer): Uint8Array {
  const out = new Uint8Array(FOOTER_SIZE);
  const v = new DataView(out.buffer);
  v.setBigUint64(FOOTER_INDEX_OFFSET_OFFSET, BigInt(f.indexOffset));
  v.setBigUint64(FOOTER_INDEX_SIZE_OFFSET, BigInt(f.indexSize));
  v.setUint32(FOOTER_KEY_COUNT_OFFSET, f.keyCount);
  v.setUint32(FOOTER_BLOCK_COUNT_OFFSET, f.blockCount);
  v.setBigUint64(FOOTER_INDEX_CHECKSUM_OFFSET, f.indexChecksum);
  v.setUint32(FOOTER_CHECKSUM_OFFSET, footerChecksum(header, out));
  v.setUint32(FOOTER_MAGIC_OFFSET, MAGIC);
  return out;
}

export interface Header {
  readonly version: number;
  readonly level: number;
}

/** Validates the header on its own. */
export function decodeHeader(file: string, header: Uint8Array): Header {
  const v = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const magic = v.getUint32(HEADER_MAGIC_OFFSET);
  if (magic !== MAGIC) throw new CorruptionError(file, HEADER_MAGIC_OFFSET, `bad header magic 0x${magic.toString(16)}`);
  const version = v.getUint8(HEADER_VERSION_OFFSET);
  if (!isReadableVersion(version)) throw new CorruptionError(file, HEADER_VERSION_OFFSET, `unsupported TSM version ${version}`);
  if (v.getUint16(HEADER_RESERVED_OFFSET) !== 0) throw new CorruptionError(file, HEADER_RESERVED_OFFSET, 'reserved header bytes set');
  return { version, level: v.getUint8(HEADER_LEVEL_OFFSET) };
}

/** Validates the footer against the header bytes and the file size. */
export function decodeFooter(file: string, header: Uint8Array, footer: Uint8Array, fileSize: number): Footer {
  const at = fileSize - FOOTER_SIZE;
  const v = new DataView(footer.buffer, footer.byteOffset, footer.byteLength);
  const magic = v.getUint32(FOOTER_MAGIC_OFFSET);
  if (magic !== MAGIC) throw new CorruptionError(file, at + FOOTER_MAGIC_OFFSET, `bad footer magic 0x${magic.toString(16)} (truncated or torn file?)`);
  const stored = v.getUint32(FOOTER_CHECKSUM_OFFSET);
  if (stored !== footerChecksum(header, footer)) throw new CorruptionError(file, at + FOOTER_CHECKSUM_OFFSET, 'footer checksum mismatch');
  const indexOffset = v.getBigUint64(FOOTER_INDEX_OFFSET_OFFSET);
  const indexSize = v.getBigUint64(FOOTER_INDEX_SIZE_OFFSET);
  if (indexOffset < BigInt(HEADER_SIZE) || indexOffset + indexSize + BigInt(FOOTER_SIZE) !== BigInt(fileSize)) {
    throw new CorruptionError(file, at, `index at ${indexOffset} of ${indexSize} bytes does not fit a ${fileSize}-byte file`);
  }
  return {
    indexOffset: Number(indexOffset),
    indexSize: Number(indexSize),
    keyCount: v.getUint32(FOOTER_KEY_COUNT_OFFSET),
    blockCount: v.getUint32(FOOTER_BLOCK_COUNT_OFFSET),
    indexChecksum: v.getBigUint64(FOOTER_INDEX_CHECKSUM_OFFSET),
  };
}

/** Files shorter than this cannot hold one key; reject before reading. */
export function checkMinimumSize(file: string, size: number): void {
  if (size < MIN_FILE_SIZE) throw new CorruptionError(file, size, `file of ${size} bytes is shorter than any TSM file (${MIN_FILE_SIZE})`);
}

/** checksum32 over header ‖ footer fields before the checksum (one small copy, ~40 bytes). */
function footerChecksum(header: Uint8Array, footer: Uint8Array): number {
  const covered = new Uint8Array(HEADER_SIZE + FOOTER_CHECKSUM_OFFSET);
  covered.set(header.subarray(0, HEADER_SIZE));
  covered.set(footer.subarray(0, FOOTER_CHECKSUM_OFFSET), HEADER_SIZE);
  return checksum32(covered);
}

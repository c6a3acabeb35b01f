/**
 * The text a parser pass reads, with its UTF-16 code units also as bytes: ASCII units as they
 * are, every other unit as 0x80 (not ASCII, so never a digit, separator or escape).
 *
 * Why: the hot reads of the line protocol parser (blank and comment checks, field values'
 * digits, timestamps) and its comparisons of a line's key and field keys with the ones
 * predicted from the previous line run once per character. `charCodeAt` in optimised code
 * still checks the string's representation on every call; a typed array read is a bounds
 * check and a load, and a DataView compares four bytes at a time (section 19 of
 * perf/README.md has the figures). A pure-ASCII body is its own code units (no copy); other
 * text needs one pass to map its units.
 *
 * Equality of code units with the UTF-8 bytes of a key (byte-key.ts) means equal text when
 * the key is ASCII, and never holds for a key with another character: its UTF-8 lead byte
 * (≥ 0xC2) is no code unit here.
 */
import { isAscii } from 'node:buffer';

/** Non-ASCII UTF-16 units read as this byte. */
export const NON_ASCII = 0x80;

export interface CodeUnits {
  readonly s: string;
  /** codes[i] is s.charCodeAt(i) when that is ASCII, else NON_ASCII; the same length as s. */
  readonly codes: Uint8Array;
  /** A view of `codes` for reading four of them at once. */
  readonly view: DataView;
}

/** A decoded pure-ASCII body: its bytes are its code units. */
export function asciiUnits(s: string, bytes: Uint8Array): CodeUnits {
  return { s, codes: bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Code units of any text (one pass over the text unless it is ASCII). */
export function codeUnitsOf(s: string): CodeUnits {
  const codes = Buffer.from(s, 'latin1'); // the low byte of each unit
  if (!isAscii(codes) || Buffer.byteLength(s, 'utf8') !== s.length) {
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= NON_ASCII) codes[i] = NON_ASCII;
  }
  return asciiUnits(s, codes);
}

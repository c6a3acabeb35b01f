/**
 * A key text as the little-endian 32-bit words of its UTF-8 bytes, compared with a body's
 * code units (code-units.ts) four bytes per step, without slicing the body into a string.
 * The parser keeps these for the key section and the field keys it predicts from the line
 * before (a line's key text followed by its space, a field key followed by its `=`).
 */
export class ByteKey {
  /** The bytes in words; the last word's bytes past the end are 0. */
  readonly words: Int32Array;
  /** The bits of the last word that hold bytes of the key. */
  readonly tailMask: number;
  /** Whether the text is ASCII (a key with another character never matches code units). */
  readonly ascii: boolean;

  constructor(text: string) {
    const bytes = Buffer.from(text, 'utf8');
    this.ascii = bytes.length === text.length;
    const padded = new Uint8Array(Math.max(4, (bytes.length + 3) & ~3));
    padded.set(bytes);
    const view = new DataView(padded.buffer);
    this.words = new Int32Array(padded.length >> 2);
    for (let w = 0; w < this.words.length; w++) this.words[w] = view.getInt32(4 * w, true);
    const rest = bytes.length & 3;
    this.tailMask = bytes.length === 0 ? 0 : rest === 0 ? -1 : (1 << (8 * rest)) - 1;
  }
}

/** A key that matches nothing (before a real one is made). */
export const NO_KEY = new ByteKey('');

/**
 * Whether `view` holds the key's bytes from `at`. Reads whole words, so it answers false
 * (the caller then compares strings) when the last word would pass the view's end.
 */
export function matchesKey(view: DataView, at: number, key: ByteKey): boolean {
  const words = key.words;
  const last = words.length - 1;
  if (key.tailMask === 0 || at + 4 * last + 4 > view.byteLength) return false;
  for (let w = 0; w < last; w++) if (view.getInt32(at + 4 * w, true) !== words[w]) return false;
  return (view.getInt32(at + 4 * last, true) & key.tailMask) === words[last];
}

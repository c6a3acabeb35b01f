/**
 * The packing of non-negative integer runs (zigzag deltas) shared by the integer and decimal
 * encodings: a per-block Huffman code (huffman.ts) or simple8b (simple8b.ts), whichever is
 * smaller; ties go to simple8b. Huffman's exact cost is computed first and simple8b is only
 * sized against it, so the losing packing is never built.
 */
import type { ByteWriter } from './varint.js';
import { BitWriter } from './bitstream.js';
import { appendHuffman, huffmanCost } from './huffman.js';
import { packNumbers, packedBitsWithin } from './simple8b.js';

/** Whether z[start, start + count) packs smaller with Huffman. appendPacked must follow (it reuses Huffman's tables). */
export function prefersHuffman(z: Float64Array, start: number, count: number): boolean {
  const bits = huffmanCost(z, start, count);
  return bits < packedBitsWithin(z, start, count, bits);
}

/** Writes the values in the packing prefersHuffman chose for them. */
export function appendPacked(out: ByteWriter, z: Float64Array, start: number, count: number, huffman: boolean): void {
  if (!huffman) {
    packNumbers(out, z, start, count);
    return;
  }
  const bw = new BitWriter(out);
  appendHuffman(bw, z, start, count);
  bw.flush();
}

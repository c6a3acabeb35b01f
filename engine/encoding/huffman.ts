/**
 * Per-block canonical Huffman code for small unsigned integers (zigzag deltas), for blocks
 * where simple8b wastes bits: a TSBS-style random walk has deltas in −3..3 with entropy
 * ≈ 2.15 bits, which simple8b stores in 3 bits and this code in ≈ 2.25.
 *
 * Bit stream (bitstream.ts, MSB first); the value count is stored by the caller:
 *   17 × 4 bits   code length of symbols 0..16 (0 = unused, at most MAX_LEN)
 *   per value     the canonical code of min(z, 16); symbol 16 is an escape followed by
 *                 gamma(z − 15) (Elias gamma: N zeros, then the N+1-bit number)
 *
 * Limits: every value must be below 2^24 (`huffmanCost` returns Infinity otherwise). Codes
 * are canonical: sorted by (length, symbol), consecutive values per length.
 */
import type { BitWriter } from './bitstream.js';
import { paddedCopy, window32 } from './bitstream.js';
import { unzigzag, type ByteReader } from './varint.js';

const SYMBOLS = 17;
const ESC = 16;
const MAX_LEN = 10;
/** Escapes stay within one 25-bit peek: gamma(z − 15) has at most 24 leading zeros. */
const LIMIT = 2 ** 24;

const freq = new Float64Array(SYMBOLS);
const lens = new Uint8Array(SYMBOLS);
const codes = new Uint32Array(SYMBOLS);

function gammaBits(k: number): number {
  return 2 * (31 - Math.clz32(k)) + 1;
}

/** Huffman code lengths for `f` into `out`, capped at MAX_LEN by flattening the counts. */
function codeLengths(f: Float64Array, out: Uint8Array): void {
  const w = Float64Array.from(f);
  // Every pass flattens the counts first, the first one by 1 (they are integers, so it changes
  // nothing): a flattening step run only when lengths need capping met optimised code without
  // type feedback and was thrown away (perf/README.md section 17).
  for (let div = 1; ; div = 4) {
    for (let s = 0; s < SYMBOLS; s++) if (w[s]! > 0) w[s] = Math.ceil(w[s]! / div);
    // Nodes: leaves 0..16, internal nodes after; O(n^2) merging is cheap for 17 symbols.
    const weight: number[] = [];
    const parent: number[] = [];
    const alive: number[] = [];
    for (let s = 0; s < SYMBOLS; s++) {
      weight.push(w[s]!);
      parent.push(-1);
      if (w[s]! > 0) alive.push(s);
    }
    out.fill(0);
    if (alive.length === 1) {
      out[alive[0]!] = 1;
      return;
    }
    while (alive.length > 1) {
      const a = takeLightest(alive, weight);
      const b = takeLightest(alive, weight);
      const node = weight.length;
      weight.push(weight[a]! + weight[b]!);
      parent.push(-1);
      parent[a] = node;
      parent[b] = node;
      alive.push(node);
    }
    let max = 0;
    for (let s = 0; s < SYMBOLS; s++) {
      if (w[s]! === 0) continue;
      let d = 0;
      for (let n = s; parent[n]! >= 0; n = parent[n]!) d++;
      out[s] = d;
      if (d > max) max = d;
    }
    if (max <= MAX_LEN) return;
  }
}

/**
 * Removes and returns the alive node of least (weight, id): what sorting `alive` by that order
 * and shifting gave, without a comparator closure per block (each was optimised anew).
 */
function takeLightest(alive: number[], weight: readonly number[]): number {
  let at = 0;
  for (let i = 1; i < alive.length; i++) {
    const n = alive[i]!;
    const best = alive[at]!;
    if (weight[n]! < weight[best]! || (weight[n] === weight[best] && n < best)) at = i;
  }
  return alive.splice(at, 1)[0]!;
}

function canonical(): void {
  let code = 0;
  for (let len = 1; len <= MAX_LEN; len++) {
    for (let s = 0; s < SYMBOLS; s++) if (lens[s] === len) codes[s] = code++;
    code <<= 1;
  }
}

/**
 * Builds the code for z[start..start+count) and returns its size in bits, or Infinity when a
 * value is 2^24 or more. `appendHuffman` must follow immediately (it reuses the tables).
 */
export function huffmanCost(z: Float64Array, start: number, count: number): number {
  const escapeBits = countSymbols(z, start, count);
  if (escapeBits === Infinity) return Infinity;
  codeLengths(freq, lens);
  canonical();
  let bits = SYMBOLS * 4 + escapeBits;
  for (let s = 0; s < SYMBOLS; s++) bits += freq[s]! * lens[s]!;
  return bits;
}

/**
 * Symbol counts of the values into `freq`; returns the escapes' extra bits, Infinity when a
 * value is at or above LIMIT. A function of its own, returning right after its loop, for the
 * reason given at buildTables: huffmanCost's OSR code deoptimised in the code-length step
 * after this loop on every block that needed its lengths capped (15 times in the flush worker
 * in a 3 h run, perf/README.md section 11).
 */
function countSymbols(z: Float64Array, start: number, count: number): number {
  freq.fill(0);
  let escapeBits = 0;
  for (let i = start; i < start + count; i++) {
    const v = z[i]!;
    if (v >= LIMIT) return Infinity;
    if (v >= ESC) {
      freq[ESC]!++;
      escapeBits += gammaBits(v - 15);
    } else {
      freq[v]!++;
    }
  }
  return escapeBits;
}

/** Writes the code built by the last `huffmanCost` call and the values. */
export function appendHuffman(w: BitWriter, z: Float64Array, start: number, count: number): void {
  for (let s = 0; s < SYMBOLS; s++) w.write(lens[s]!, 4);
  for (let i = start; i < start + count; i++) {
    const v = z[i]!;
    if (v < ESC) {
      w.write(codes[v]!, lens[v]!);
    } else {
      w.write(codes[ESC]!, lens[ESC]!);
      const k = v - 15;
      const n = 31 - Math.clz32(k);
      w.write(0, n);
      w.write(k, n + 1);
    }
  }
}

/**
 * Decode tables of one code: `single` maps the next MAX_LEN bits to (symbol << 4 | length) of
 * the first code (0: no code starts with those bits); `multi` maps them to every whole
 * non-escape code they hold, up to MULTI of them: bits 0-3 their total length, 4-6 how many,
 * then 4 bits per symbol (non-escape symbols are below 16). A random walk's codes are 1-4 bits
 * long, so one lookup usually yields 3-4 values instead of one.
 */
interface DecodeTables {
  readonly single: Uint16Array;
  readonly multi: Uint32Array;
  /** Per `multi` entry: the sum of its symbols read as zigzag deltas (sumHuffmanDeltas). */
  readonly multiDelta: Int8Array;
}

const MULTI = 4;

/** Tables of one code, with the 68 header bits (17 code lengths) that name it. */
interface KnownCode extends DecodeTables {
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
}

/**
 * Codes seen lately, most used first (a hit moves one place forward). Blocks of one dataset
 * share few codes (the TSBS cpu data: 170 over 6000 blocks, 64 of them cover 97 %), and
 * building `multi` costs more than decoding a small block, so tables are kept (6 KiB each);
 * finding them compares three words, far cheaper than any keyed lookup.
 */
const known: KnownCode[] = [];
const KNOWN_LIMIT = 256;

/**
 * The loops live in their own functions, with nothing after them: V8 compiles a long loop on
 * stack replacement (OSR) while this runs for the first time, and an OSR'd function with an
 * object literal after its loop (no feedback yet for it) deoptimised there on every new code
 * a compaction met, ~35 times a second, re-entering the same OSR code each time.
 */
function buildTables(): DecodeTables {
  canonical();
  const single = new Uint16Array(1 << MAX_LEN);
  fillSingle(single);
  const multi = new Uint32Array(1 << MAX_LEN);
  const multiDelta = new Int8Array(1 << MAX_LEN);
  fillMulti(single, multi, multiDelta);
  return { single, multi, multiDelta };
}

/** Each window's first code: (symbol << 4) | length, 0 where no code starts. */
function fillSingle(single: Uint16Array): void {
  for (let s = 0; s < SYMBOLS; s++) {
    const len = lens[s]!;
    if (len === 0) continue;
    const from = codes[s]! << (MAX_LEN - len);
    single.fill((s << 4) | len, from, from + (1 << (MAX_LEN - len)));
  }
}

/** Each window's up to MULTI whole codes without escapes, and the sum of their deltas. */
function fillMulti(single: Uint16Array, multi: Uint32Array, multiDelta: Int8Array): void {
  const mask = (1 << MAX_LEN) - 1;
  for (let w = 0; w <= mask; w++) {
    let used = 0;
    let k = 0;
    let entry = 0;
    let delta = 0;
    while (k < MULTI) {
      const e = single[(w << used) & mask]!;
      const len = e & 15;
      const sym = e >>> 4;
      if (e === 0 || sym === ESC || used + len > MAX_LEN) break;
      entry |= sym << (7 + 4 * k);
      delta += unzigzag(sym);
      used += len;
      k++;
    }
    multi[w] = entry | (k << 4) | used;
    multiDelta[w] = delta;
  }
}

/** The tables of the code whose lengths start `b`, checked when first seen. */
function tablesOf(r: ByteReader, b: Uint8Array): DecodeTables {
  const w0 = window32(b, 0);
  const w1 = window32(b, 32);
  const w2 = window32(b, 64) >>> 28;
  for (let j = 0; j < known.length; j++) {
    const t = known[j]!;
    if (t.w0 !== w0 || t.w1 !== w1 || t.w2 !== w2) continue;
    if (j > 0) [known[j - 1], known[j]] = [t, known[j - 1]!];
    return t;
  }
  let kraft = 0;
  for (let s = 0; s < SYMBOLS; s++) {
    const len = window32(b, 4 * s) >>> 28;
    if (len > MAX_LEN) throw r.corrupt(`huffman: code length ${len}`, r.pos + (s >>> 1));
    lens[s] = len;
    if (len) kraft += 2 ** (MAX_LEN - len);
  }
  if (kraft === 0 || kraft > 1 << MAX_LEN) throw r.corrupt('huffman: invalid code lengths', r.pos);
  const t = { ...buildTables(), w0, w1, w2 };
  if (known.length >= KNOWN_LIMIT) known.pop();
  known.push(t);
  return t;
}

/** Decodes `count` values into out[outStart..]; `r` advances past the stream. */
export function readHuffman(r: ByteReader, out: Float64Array, outStart: number, count: number): void {
  walkHuffman(r, out, outStart, count, 0);
}

/**
 * `from` plus the `count` values read as zigzag deltas, without storing them: the last value of
 * a delta-coded column (integer.ts) at a quarter of the decode's cost, as a table lookup adds
 * the deltas of its 3-4 codes at once. Every partial sum is a value of the column, so for a
 * column of safe integers the running double is exact. `r` advances past the stream.
 */
export function sumHuffmanDeltas(r: ByteReader, from: number, count: number): number {
  return walkHuffman(r, null, 0, count, from);
}

/**
 * The one decode loop of both: stores values into `out` when given, else adds them to `acc`
 * as zigzag deltas and returns the sum.
 */
function walkHuffman(r: ByteReader, out: Float64Array | null, outStart: number, count: number, acc: number): number {
  const b = paddedCopy(r.buf, r.pos, r.end);
  const endBit = (r.end - r.pos) * 8;
  if (endBit < SYMBOLS * 4) throw r.corrupt('huffman: truncated code table');
  const { single, multi, multiDelta } = tablesOf(r, b);
  let p = SYMBOLS * 4;
  let i = outStart;
  const end = outStart + count;
  while (i < end) {
    const w = window32(b, p) >>> (32 - MAX_LEN);
    const m = multi[w]!;
    const k = (m >>> 4) & 7;
    if (k !== 0 && i + k <= end) {
      if (out === null) {
        acc += multiDelta[w]!;
      } else {
        out[i] = (m >>> 7) & 15;
        if (k > 1) out[i + 1] = (m >>> 11) & 15;
        if (k > 2) out[i + 2] = (m >>> 15) & 15;
        if (k > 3) out[i + 3] = (m >>> 19) & 15;
      }
      i += k;
      p += m & 15;
    } else {
      const e = single[w]!;
      if (e === 0) throw r.corrupt('huffman: invalid code', r.pos + (p >>> 3));
      p += e & 15;
      const s = e >>> 4;
      let z = s;
      if (s >= ESC) {
        const zeros = Math.clz32(window32(b, p));
        if (zeros > 23) throw r.corrupt('huffman: bad escape', r.pos + (p >>> 3));
        p += zeros;
        z = (window32(b, p) >>> (31 - zeros)) + 15;
        p += zeros + 1;
      }
      if (out === null) acc += unzigzag(z);
      else out[i] = z;
      i++;
    }
    // Checked per lookup: one moves at most 57 bits (an escape), well inside the 128 bits of padding.
    if (p > endBit) throw r.corrupt('huffman: truncated', r.end);
  }
  r.pos += (p + 7) >>> 3;
  return acc;
}

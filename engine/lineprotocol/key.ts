/**
 * The key section of a line (`measurement[,tag=value...]`, up to the first unescaped space):
 * validation with the 1.x error texts, unescaping, tag sorting, and a bounded cache.
 *
 * A series repeats on almost every write, so the parsed key is cached by its raw text. A
 * cache hit costs one hash of the raw key and skips all tag work. Cached strings are copies
 * (interning.ts), never slices of a request body, and tags are shared between cached keys.
 */
import type { Tag } from '../point.js';
import { NO_KEY, type ByteKey } from './byte-key.js';
import { addSharedTag, detach, internName, sharedTag } from './interning.js';
import { compareBytes, escapeTag, MEASUREMENT_UNESCAPES, pointKeyMeasurement, TAG_SPECIALS, unescapeWith } from './series-key.js';

const BS = 0x5c;
const SPACE = 0x20;
const COMMA = 0x2c;
const EQUALS = 0x3d;

/** 1.x models.MaxKeyLength: the raw key (and key + 4 + field key) in bytes. */
export const MAX_KEY_LENGTH = 65535;

/** A parsed key section. */
export interface KeyInfo {
  /** The raw key text this was parsed from (a detached copy; the cache's map key). */
  readonly raw: string;
  readonly seriesKey: string;
  /** The measurement the series is indexed under (SHOW MEASUREMENTS, FROM). */
  readonly measurement: string;
  /**
   * Set when 1.x registers the line's fields under another name than `measurement` (a name
   * with an escaped backslash before `,`, space, `=` or `"`; see measurementNames): no
   * statement lists or reads them, so such a line leaves only its series.
   */
  readonly fieldMeasurement: string | undefined;
  readonly tags: readonly Tag[];
  /** A tag named `time`: 1.x drops such points (`invalid tag key`). */
  readonly timeTag: boolean;
  /** UTF-8 length of the raw key, for the max-key-length checks. */
  readonly keyBytes: number;
  /**
   * The key of the line that followed a line with this key last time. Bodies list their series
   * in a stable order (TSBS, Telegraf and sensor gateways cycle through them), so the parser
   * first compares the next line's key text with this one's (see parse.ts) and skips hashing it
   * for a cache lookup when they are equal. Cleared when the cache drops this entry.
   */
  next: KeyInfo | undefined;
  /**
   * `raw` and the space after it as bytes, for comparing a predicted key with a line's code
   * units (NO_KEY until this key is first predicted, so keys never predicted cost nothing).
   */
  rawBytes: ByteKey;
  /**
   * The column builder that last numbered this key's series (its `mark`), and the number it
   * gave: the builder's per-line lookup is then two loads instead of a map lookup.
   */
  batchMark: number;
  batchSeries: number;
}

// Tag boundaries of the key being parsed: [keyStart, keyEnd, valueStart, valueEnd, flags] per tag.
let bounds = new Int32Array(5 * 64);

/**
 * Parses `s[start, end)` as a key. With `atLineEnd` the range is a whole line that has no
 * unescaped space, so running out of text means the fields are missing; the result is then
 * always an error reason. Otherwise `end` is the first unescaped space.
 */
export function parseKey(s: string, start: number, end: number, atLineEnd: boolean): KeyInfo | string {
  if (s.charCodeAt(start) === COMMA) return 'missing measurement';
  let i = start;
  let mEsc = s.charCodeAt(start) === BS;
  let c = 0;
  // Measurement: the first character is never a separator; later ones are when unescaped.
  for (;;) {
    i++;
    if (i >= end) {
      if (atLineEnd) return 'missing fields';
      break;
    }
    c = s.charCodeAt(i);
    if (c === BS) mEsc = true;
    if (s.charCodeAt(i - 1) === BS) continue;
    if (c === COMMA || c === SPACE) break;
  }
  const mEnd = i;
  let nt = 0;
  while (i < end && s.charCodeAt(i) === COMMA) {
    const ks = ++i;
    c = s.charCodeAt(ks);
    if (ks >= end || c === SPACE || c === COMMA || c === EQUALS) return 'missing tag key';
    let flags = c === BS ? 1 : 0;
    for (;;) {
      i++;
      if (i >= end) return 'missing tag value';
      c = s.charCodeAt(i);
      if (c === BS) flags |= 1;
      if (s.charCodeAt(i - 1) === BS) continue;
      if (c === SPACE || c === COMMA) return 'missing tag value';
      if (c === EQUALS) break;
    }
    const ke = i;
    const vs = ++i;
    c = s.charCodeAt(vs);
    if (vs >= end || c === COMMA || c === SPACE) return 'missing tag value';
    if (c === BS) flags |= 2;
    // 1.x only checks `=` from the second character on; a leading `=` is part of the value.
    if (c === EQUALS) flags |= 4;
    for (;;) {
      i++;
      if (i >= end) {
        if (atLineEnd) return 'missing fields';
        break;
      }
      c = s.charCodeAt(i);
      if (c === BS) flags |= 2;
      if (s.charCodeAt(i - 1) === BS) continue;
      if (c === EQUALS) return 'invalid tag format';
      if (c === COMMA || c === SPACE) break;
    }
    if (5 * nt + 5 > bounds.length) {
      const grown = new Int32Array(bounds.length * 2);
      grown.set(bounds);
      bounds = grown;
    }
    bounds[5 * nt] = ks;
    bounds[5 * nt + 1] = ke;
    bounds[5 * nt + 2] = vs;
    bounds[5 * nt + 3] = i;
    bounds[5 * nt + 4] = flags;
    nt++;
  }
  return buildKeyInfo(s, start, end, mEnd, mEsc, nt);
}

function buildKeyInfo(s: string, start: number, end: number, mEnd: number, mEsc: boolean, nt: number): KeyInfo | string {
  const names = mEsc ? measurementNames(s, start, mEnd) : undefined;
  const measurement = internName(names === undefined ? s.slice(start, mEnd) : names.indexed);
  const fieldMeasurement = names === undefined || names.indexed === names.fields ? undefined : internName(names.fields);
  const keyMeasurement = names?.key;
  const tags: Tag[] = new Array<Tag>(nt);
  let sorted = true;
  // The raw text is already canonical when tags are sorted, no value starts with `=` and the
  // name has no escape the key drops: every other special character is escaped by construction.
  let canonical = keyMeasurement === undefined || keyMeasurement === s.slice(start, mEnd);
  let timeTag = false;
  for (let t = 0; t < nt; t++) {
    const b = 5 * t;
    const ks = bounds[b]!;
    const ve = bounds[b + 3]!;
    const flags = bounds[b + 4]!;
    const rawPair = s.slice(ks, ve);
    let tag = sharedTag(rawPair);
    if (tag === undefined) {
      const ke = bounds[b + 1]!;
      const vs = bounds[b + 2]!;
      const key = flags & 1 ? unescapeWith(s, ks, ke, TAG_SPECIALS) : s.slice(ks, ke);
      const value = flags & 2 ? unescapeWith(s, vs, ve, TAG_SPECIALS) : s.slice(vs, ve);
      tag = addSharedTag(rawPair, key, value);
    }
    if (flags & 4) canonical = false;
    if (tag.key === 'time') timeTag = true;
    if (t > 0) {
      const cmp = compareBytes(tags[t - 1]!.key, tag.key);
      if (cmp === 0) return 'duplicate tags';
      if (cmp > 0) sorted = false;
    }
    tags[t] = tag;
  }
  const raw = start === 0 && end === s.length ? s : s.slice(start, end);
  if (sorted && canonical) return keyInfo(raw, measurement, fieldMeasurement, tags, timeTag, raw);
  // Sort tag indices (insertion sort: tag sets are small), then join the raw tag texts,
  // which are canonical except for a value starting with `=`.
  const order: number[] = new Array<number>(nt);
  for (let t = 0; t < nt; t++) {
    const k = tags[t]!.key;
    let u = t;
    for (; u > 0 && compareBytes(tags[order[u - 1]!]!.key, k) > 0; u--) order[u] = order[u - 1]!;
    order[u] = t;
  }
  const sortedTags: Tag[] = new Array<Tag>(nt);
  const parts: string[] = new Array<string>(nt + 1);
  parts[0] = keyMeasurement ?? s.slice(start, mEnd);
  for (let u = 0; u < nt; u++) {
    const t = order[u]!;
    const tag = tags[t]!;
    if (u > 0 && tag.key === sortedTags[u - 1]!.key) return 'duplicate tags';
    sortedTags[u] = tag;
    const b = 5 * t;
    parts[u + 1] = bounds[b + 4]! & 4 ? escapeTag(tag.key) + '=' + escapeTag(tag.value) : s.slice(bounds[b]!, bounds[b + 3]!);
  }
  // join() yields one flat string; `+=` would keep a rope of ~2 objects per tag alive.
  return keyInfo(raw, measurement, fieldMeasurement, sortedTags, timeTag, parts.join(','));
}

/**
 * The three names 1.x derives from a written measurement `s[start, end)` holding a backslash
 * (models/points.go, pkg/escape). The point's name unescapes `\,`, `\ `, `\=` and `\"` in one
 * pass (escape.Unescape), and its fields are registered under that name. The series key is
 * MakeKey of it: `\,` and `\ ` unescaped once more, then `,` and space escaped. The index
 * reads the measurement back from that key with escape.Unescape. The three agree unless the
 * point's name still holds a backslash before one of those four characters, as it does after
 * an escaped backslash (`a\\,b` is named `a\,b`, keyed `a\,b` and indexed as `a,b`).
 */
function measurementNames(s: string, start: number, end: number): { fields: string; key: string; indexed: string } {
  const fields = unescapeWith(s, start, end, MEASUREMENT_UNESCAPES);
  const key = pointKeyMeasurement(fields);
  return { fields, key, indexed: unescapeWith(key, 0, key.length, MEASUREMENT_UNESCAPES) };
}

function keyInfo(raw: string, measurement: string, fieldMeasurement: string | undefined, tags: readonly Tag[], timeTag: boolean, seriesKey: string): KeyInfo {
  return {
    raw,
    seriesKey,
    measurement,
    fieldMeasurement,
    tags,
    timeTag,
    keyBytes: raw.length * 3 <= MAX_KEY_LENGTH ? raw.length : Buffer.byteLength(raw, 'utf8'),
    next: undefined,
    rawBytes: NO_KEY,
    batchMark: 0,
    batchSeries: 0,
  };
}

function unlink(generation: Map<string, KeyInfo>): void {
  for (const info of generation.values()) info.next = undefined;
}

/**
 * Bounded map from raw key text to parsed key. Two generations: new entries go to `young`;
 * when it is full it becomes `old` and the previous `old` is dropped, and a hit in `old` is
 * promoted. Series in use stay cached (LRU-like) at the price of a second lookup for a hit in
 * `old`; memory stays under `capacity` entries.
 */
export class KeyCache {
  private young = new Map<string, KeyInfo>();
  private old = new Map<string, KeyInfo>();
  private readonly half: number;

  constructor(capacity: number) {
    this.half = Math.max(1, capacity >> 1);
  }

  get(raw: string): KeyInfo | undefined {
    const hit = this.young.get(raw);
    if (hit !== undefined) return hit;
    const aged = this.old.get(raw);
    if (aged !== undefined) this.put(aged.raw, aged);
    return aged;
  }

  /** Parses and remembers the key `raw` (a slice ending at the first unescaped space). */
  add(raw: string): KeyInfo | string {
    const own = detach(raw);
    const info = parseKey(own, 0, own.length, false);
    if (typeof info !== 'string') this.put(own, info);
    return info;
  }

  clear(): void {
    unlink(this.young);
    unlink(this.old);
    this.young.clear();
    this.old.clear();
  }

  private put(own: string, info: KeyInfo): void {
    if (this.young.size >= this.half) {
      // Dropped entries must not stay reachable through another entry's `next`, nor keep a
      // chain of further dropped entries alive through their own.
      unlink(this.old);
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(own, info);
  }
}

/**
 * The field set of a line (`k=v[,k=v...]`): keys, typed values and the 1.x error texts.
 *
 * Value syntax follows 1.x models/points.go (scanFields/scanNumber/scanBoolean):
 *   float     `1`, `-1.5`, `.5`, `5.`, `1e3`, `-1.5E-3`, `1e+3` (NaN/Inf are not accepted)
 *   integer   `12i`, int64 range checked
 *   unsigned  `12u`, uint64 range checked (Strata accepts it; stock 1.6 does not)
 *   boolean   t T true True TRUE f F false False FALSE
 *   string    `"..."` where only `\"` and `\\` are escapes
 * Deliberate difference: text glued to a closing quote (`v="a"b`) is `invalid field format`
 * (or `unbalanced quotes` when it opens another quote, as 1.x says); 1.x accepts the first
 * kind and stores a mangled string.
 */
import { FieldType } from '../point.js';
import { ByteKey, matchesKey } from './byte-key.js';
import type { CodeUnits } from './code-units.js';
import type { FieldSet } from './field-set.js';
import { detach, detachValue, internName } from './interning.js';
import { lookBehindFields } from './field-look-behind.js';
import { type KeyInfo, MAX_KEY_LENGTH } from './key.js';
import { FIELD_KEY_SPECIALS, unescapeStringValue, unescapeWith } from './series-key.js';
import { scanBoolean, scanNumber, valueEnd } from './values.js';

const BS = 0x5c;
const SPACE = 0x20;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const DASH = 0x2d;
const DOT = 0x2e;
const LOWER_I = 0x69;
const LOWER_U = 0x75;

// Field keys of the previous line, raw (escaped) and unescaped, by position. Most lines of
// a batch repeat the field names of the line before (across series), so comparing against
// this small, cache-hot memo replaces scanning, slicing and interning the key.
const memoRaw: string[] = [];
const memoKeys: string[] = [];
/** memoRaw[j] and its `=` as bytes: compared with the line's code units four at a time. */
const memoBytes: ByteKey[] = [];
/** ByteKeys of raw field keys seen lately (bounded), so a memo miss allocates no new one. */
const keyBytes = new Map<string, ByteKey>();
const KEY_BYTES_LIMIT = 10_000;

function keyWithEquals(raw: string): ByteKey {
  let k = keyBytes.get(raw);
  if (k === undefined) {
    if (keyBytes.size >= KEY_BYTES_LIMIT) keyBytes.clear();
    k = new ByteKey(`${raw}=`);
    keyBytes.set(raw, k);
  }
  return k;
}
/** memoKeys[0, memoUnique) are known to be distinct. */
let memoUnique = 0;

/**
 * Parses the field set starting at `s[pos]` (not at the end) into `out`. Returns the index
 * just past it (a space or `end`), or an error reason. Fields named `time` are dropped, as 1.x
 * does (`out` may then be empty); duplicate keys keep the last value.
 */
export function parseFields(text: CodeUnits, pos: number, end: number, info: KeyInfo, out: FieldSet): number | string {
  const { s, codes, view } = text;
  out.count = 0;
  let j = 0;
  let allHit = true;
  let sawTime = false;
  // 1.x limits key + 4 + field key to MAX_KEY_LENGTH bytes; a UTF-16 unit is at most 3 bytes,
  // so the exact check runs only for keys that could come near the limit.
  const keyRoom = MAX_KEY_LENGTH - 4 - info.keyBytes;
  // Reported only after the whole field set scanned cleanly, in 1.x's order of checks.
  let lengthError: string | null = null;
  let badFormat = false;
  // A key ending in an escaped backslash: 1.x reads such a set back with another split.
  let lookBehind = false;
  const start = pos;
  for (;;) {
    if (pos >= end) return 'invalid field format';
    let c = codes[pos]!;
    if (c === EQUALS) return 'missing field key';
    let key: string;
    const raw = memoRaw[j];
    // A key that is not ASCII never matches as bytes; it is compared as text.
    if (raw !== undefined && (matchesKey(view, pos, memoBytes[j]!) || (!memoBytes[j]!.ascii && matchesAt(s, pos, raw) && s.charCodeAt(pos + raw.length) === EQUALS))) {
      if (3 * raw.length > keyRoom && lengthError === null) lengthError = keyTooLong(s, pos, pos + raw.length, info.keyBytes);
      key = memoKeys[j]!;
      pos += raw.length;
    } else {
      allHit = false;
      let ke = pos;
      let esc = false;
      let afterComma = false;
      // 1.x skips any backslash pair here (unlike the key section, which looks one back). An
      // unescaped comma inside a key is only reported once the field set has been scanned,
      // so that value errors further on win, as in 1.x.
      while (ke < end) {
        c = codes[ke]!;
        if (c === BS && ke + 1 < end) {
          esc = true;
          afterComma = false;
          ke += 2;
          continue;
        }
        if (c === EQUALS) {
          // 1.x looks two back, so the comma of `a\\,=` (after an escaped backslash) passes.
          if (afterComma && codes[ke - 2] !== BS) return 'missing field key';
          break;
        }
        if (c === SPACE) return 'invalid field format';
        afterComma = c === COMMA;
        if (afterComma) badFormat = true;
        ke++;
      }
      if (ke >= end) return 'invalid field format';
      if (3 * (ke - pos) > keyRoom && lengthError === null) lengthError = keyTooLong(s, pos, ke, info.keyBytes);
      if (esc && codes[ke - 1] === BS) lookBehind = true;
      if (badFormat || lookBehind) {
        // The line fails or is read again anyway, so nothing is remembered: '=' can never match
        // (a key never starts with `=`).
        key = '';
        memoRaw[j] = '=';
        memoKeys[j] = '';
        memoBytes[j] = keyWithEquals('=');
        if (memoUnique > j) memoUnique = j;
      } else {
        key = internName(esc ? unescapeWith(s, pos, ke, FIELD_KEY_SPECIALS) : s.slice(pos, ke));
        memoRaw[j] = esc ? detach(s.slice(pos, ke)) : key;
        memoKeys[j] = key;
        memoBytes[j] = keyWithEquals(memoRaw[j]!);
        if (memoUnique > j) memoUnique = j;
      }
      pos = ke;
    }
    j++;
    pos++; // the `=`
    if (pos >= end) return 'missing field value';
    c = codes[pos]!;
    if (c === COMMA || c === SPACE) return 'missing field value';
    let type: FieldType;
    let value: number;
    let box: string | bigint | undefined = undefined;
    if ((c >= 0x30 && c <= 0x39) || c === DASH || c === DOT || c === 0x4e || c === 0x6e) {
      // Fast path: optional `-`, digits, then `i`, `u` or the end of the value.
      const vs = pos;
      let i = c === DASH ? pos + 1 : pos;
      const ds = i;
      let v = 0;
      c = -1;
      while (i < end) {
        c = codes[i]!;
        if (c < 0x30 || c > 0x39) break;
        v = v * 10 + (c - 0x30);
        i++;
      }
      if (i === end) c = -1;
      const nd = i - ds;
      const neg = ds !== vs;
      const after = i + 1 < end ? codes[i + 1]! : -1;
      if (nd > 0 && nd <= 15 && (c === -1 || c === COMMA || c === SPACE)) {
        type = FieldType.Float;
        value = neg ? -v : v;
        pos = i;
      } else if (c === DOT && nd < 15) {
        // `12.34`: with at most 15 digits in all, m / 10^k of two exact doubles is
        // correctly rounded, the same value Number() gives.
        let k = ++i;
        while (i < end) {
          c = codes[i]!;
          if (c < 0x30 || c > 0x39) break;
          v = v * 10 + (c - 0x30);
          i++;
        }
        k = i - k;
        if (i === end) c = -1;
        if (nd + k > 0 && nd + k <= 15 && (c === -1 || c === COMMA || c === SPACE)) {
          const m = v / POW10[k]!;
          type = FieldType.Float;
          value = neg ? -m : m;
          pos = i;
        } else {
          const f = scanNumber(s, vs, end, key);
          if (typeof f === 'string') return f;
          type = f.type;
          value = typeof f.value === 'number' ? f.value : 0;
          box = typeof f.value === 'bigint' ? f.value : undefined;
          pos = valueEnd;
        }
      } else if (nd > 0 && nd <= 15 && c === LOWER_I && (after === -1 || after === COMMA || after === SPACE)) {
        // Small values as int32 so V8 stores a Smi instead of allocating a HeapNumber.
        type = FieldType.Integer;
        value = v < 0x40000000 ? (neg ? (0 - (v | 0)) | 0 : v | 0) : neg ? 0 - v : v;
        pos = i + 1;
      } else if (nd > 0 && nd <= 15 && !neg && c === LOWER_U && (after === -1 || after === COMMA || after === SPACE)) {
        type = FieldType.Unsigned;
        value = v < 0x40000000 ? v | 0 : v;
        pos = i + 1;
      } else {
        const f = scanNumber(s, vs, end, key);
        if (typeof f === 'string') return f;
        type = f.type;
        value = typeof f.value === 'number' ? f.value : 0;
        box = typeof f.value === 'bigint' ? f.value : undefined;
        pos = valueEnd;
      }
    } else if (c === QUOTE) {
      let i = pos + 1;
      let esc = false;
      for (;;) {
        if (i >= end) return 'unbalanced quotes';
        c = codes[i]!;
        if (c === BS) {
          esc = true;
          i += 2;
          continue;
        }
        if (c === QUOTE) break;
        i++;
      }
      // Detached: string values outlive the request in the cache and must not pin its body.
      type = FieldType.String;
      value = 0;
      box = detachValue(esc ? unescapeStringValue(s, pos + 1, i) : s.slice(pos + 1, i));
      pos = i + 1;
      if (pos < end) {
        c = codes[pos]!;
        if (c !== COMMA && c !== SPACE) return gluedTextError(s, pos, end, j, j - 1);
      }
    } else {
      const b = scanBoolean(s, pos, end);
      if (b === undefined) return 'invalid boolean';
      type = FieldType.Boolean;
      value = b ? 1 : 0;
      pos = valueEnd;
    }
    if (key === 'time') sawTime = true;
    else out.push(key, type, value, box);
    if (pos >= end) break;
    c = codes[pos]!;
    if (c === SPACE) break;
    if (c !== COMMA) return 'invalid field format';
    pos++;
  }
  if (badFormat) return 'invalid field format';
  if (lengthError !== null) return lengthError;
  if (lookBehind) {
    const err = lookBehindFields(s, start, pos, out);
    if (err !== null) return err;
    memoUnique = 0;
    out.dedupe();
    return pos;
  }
  // `out` is empty only when every field was named `time`; the caller refuses the point.
  // Skip the duplicate check when these keys are a prefix of a list already found distinct.
  if (!(allHit && j <= memoUnique) && out.dedupe() && !sawTime) memoUnique = j;
  return pos;
}

/**
 * Text glued to a closing quote (`v="a"b`, `v="a""`). 1.x keeps scanning the field set with
 * its quote/`=`/`,` counting and reports `unbalanced quotes` when that leaves a quote open;
 * otherwise it would accept a mangled value, which Strata refuses as `invalid field format`.
 */
function gluedTextError(s: string, i: number, end: number, equals: number, commas: number): string {
  let quoted = false;
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === BS && i + 1 < end) {
      i++;
    } else if (c === QUOTE) {
      if (equals > commas) quoted = !quoted;
    } else if (!quoted) {
      if (c === EQUALS) equals++;
      else if (c === COMMA) commas++;
      else if (c === SPACE) break;
    }
  }
  return quoted ? 'unbalanced quotes' : 'invalid field format';
}

function keyTooLong(s: string, from: number, to: number, keyBytes: number): string | null {
  const size = keyBytes + 4 + Buffer.byteLength(s.slice(from, to), 'utf8');
  return size > MAX_KEY_LENGTH ? `max key length exceeded: ${size} > ${MAX_KEY_LENGTH}` : null;
}

/** `s.startsWith(k, pos)`, written out: V8 inlines this loop but not the builtin. */
function matchesAt(s: string, pos: number, k: string): boolean {
  const n = k.length;
  if (pos + n > s.length) return false;
  for (let i = 0; i < n; i++) if (s.charCodeAt(pos + i) !== k.charCodeAt(i)) return false;
  return true;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

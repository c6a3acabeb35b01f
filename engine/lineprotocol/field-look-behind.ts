/**
 * The field set as 1.x reads it back when a field key ends in an escaped backslash (`x\\=1`).
 *
 * 1.x splits a field set twice (models/points.go): its scanner skips every backslash pair, so
 * `x\\=1` scans as key `x\\` and value 1, and the values are checked on that split (fields.ts).
 * Then walkFields (the key-length check) and the field iterator split it again with scanTo,
 * which looks one character back: an `=` right after any backslash is not a separator there.
 * So the key runs on to the next `=` that follows another character: `x\\=1,v=2` stores one
 * field `x\=1,v` = 2, and a key that runs to the end of the set (`x\\=1`, `v=1i,w\\=1i`) fails
 * the line with `invalid value: field-key=x\\=1`. fields.ts calls this only for such lines, so
 * the hot loop keeps its single split.
 */
import { FieldType } from '../point.js';
import type { FieldSet } from './field-set.js';
import { detachValue, internName } from './interning.js';
import { FIELD_KEY_SPECIALS, unescapeStringValue, unescapeWith } from './series-key.js';
import { scanBoolean, scanNumber } from './values.js';

const BS = 0x5c;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const QUOTE = 0x22;

/**
 * Re-reads the field set `s[start, end)`, already scanned cleanly, with 1.x's look-behind split
 * into `out` (fields named `time` left out, as 1.x drops them). Returns an error reason or null.
 */
export function lookBehindFields(s: string, start: number, end: number, out: FieldSet): string | null {
  out.count = 0;
  let i = start;
  while (i < end) {
    let k = i;
    while (k < end && !(s.charCodeAt(k) === EQUALS && (k === start || s.charCodeAt(k - 1) !== BS))) k++;
    if (k > end - 2) return `invalid value: field-key=${s.slice(i, k)}`;
    const vs = k + 1;
    const ve = fieldValueEnd(s, vs, end);
    const key = internName(unescapeWith(s, i, k, FIELD_KEY_SPECIALS));
    i = ve + 1;
    if (key === 'time') continue;
    const c = s.charCodeAt(vs);
    if (c === QUOTE) {
      // Detached: string values outlive the request in the cache and must not pin its body.
      out.push(key, FieldType.String, 0, detachValue(unescapeStringValue(s, vs + 1, ve - 1)));
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x4e || c === 0x6e) {
      // The scanner accepted every value on its own split, and each value here is one of those.
      const f = scanNumber(s, vs, ve, key);
      if (typeof f === 'string') return f;
      const v = f.value;
      if (typeof v === 'bigint') out.push(key, f.type, 0, v);
      else if (typeof v === 'number') out.push(key, f.type, v, undefined);
    } else {
      const b = scanBoolean(s, vs, ve);
      if (b === undefined) return 'invalid boolean';
      out.push(key, FieldType.Boolean, b ? 1 : 0, undefined);
    }
  }
  return null;
}

/** 1.x scanFieldValue: up to a comma outside quotes; `\"` and `\\` are skipped as pairs. */
function fieldValueEnd(s: string, i: number, end: number): number {
  let quoted = false;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c === BS && i + 1 < end) {
      const n = s.charCodeAt(i + 1);
      if (n === QUOTE || n === BS) {
        i += 2;
        continue;
      }
    }
    if (c === QUOTE) quoted = !quoted;
    else if (c === COMMA && !quoted) break;
    i++;
  }
  return i;
}

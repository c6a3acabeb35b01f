/**
 * Field values off the fast path, with the 1.x rules and texts (models/points.go scanNumber
 * and scanBoolean): the general number scanner (decimals, exponents, long or out-of-range
 * integers) and booleans. Both report where the value ended through `valueEnd`, so the hot
 * loop in fields.ts needs no result object.
 */
import { FieldType } from '../point.js';
import type { Field } from '../point.js';

const SPACE = 0x20;
const COMMA = 0x2c;
const DASH = 0x2d;
const DOT = 0x2e;
const LOWER_I = 0x69;
const LOWER_U = 0x75;

/** End position of the value scanned last by scanNumber or scanBoolean. */
export let valueEnd = 0;

const isDigitOrDot = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === DOT;

/** The general number scanner (1.x scanNumber rules); sets valueEnd on success. */
export function scanNumber(s: string, start: number, end: number, key: string): Field | string {
  let i = start;
  let isInt = false;
  let isUnsigned = false;
  let decimal = false;
  let scientific = false;
  if (s.charCodeAt(i) === DASH) {
    i++;
    if (i === end) return 'invalid number';
  }
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === COMMA || c === SPACE) break;
    if ((c === LOWER_I || c === LOWER_U) && i > start && !(isInt || isUnsigned)) {
      if (c === LOWER_I) isInt = true;
      else isUnsigned = true;
      continue;
    }
    if (c === DOT) {
      if (decimal) return 'invalid number';
      decimal = true;
    }
    if (i > start && (c === 0x65 || c === 0x45)) {
      scientific = true;
      continue;
    }
    if (c === 0x2b || c === DASH) {
      const p = s.charCodeAt(i - 1);
      if (p === 0x65 || p === 0x45) continue;
    }
    if (!isDigitOrDot(c)) return 'invalid number';
  }
  if ((isInt || isUnsigned) && (decimal || scientific)) return 'invalid number';
  const neg = s.charCodeAt(start) === DASH;
  const digits = i - start - (isInt || isUnsigned ? 1 : 0) - (decimal ? 1 : 0) - (neg ? 1 : 0);
  if (digits <= 0) return 'invalid number';
  valueEnd = i;
  if (isInt || isUnsigned) {
    const last = s.charCodeAt(i - 1);
    if (last !== (isInt ? LOWER_I : LOWER_U) || (isUnsigned && neg)) return 'invalid number';
    const text = s.slice(start, i - 1);
    const v = BigInt(text);
    if (isInt) {
      if (v < -(2n ** 63n) || v >= 2n ** 63n) {
        return `unable to parse integer ${text}: strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`;
      }
      return { type: FieldType.Integer, value: toSafe(v), key };
    }
    if (v >= 2n ** 64n) {
      return `unable to parse unsigned ${text}: strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`;
    }
    return { type: FieldType.Unsigned, value: toSafe(v), key };
  }
  const f = Number(s.slice(start, i));
  if (!Number.isFinite(f)) return 'invalid float';
  return { type: FieldType.Float, value: f, key };
}

/** Integer values are numbers while safe and bigint beyond 2^53 (Point contract). */
function toSafe(v: bigint): number | bigint {
  return v <= 9007199254740991n && v >= -9007199254740991n ? Number(v) : v;
}

/** 1.x scanBoolean: sets valueEnd and returns the value, or undefined when invalid. */
export function scanBoolean(s: string, start: number, end: number): boolean | undefined {
  const c = s.charCodeAt(start);
  let i = start + 1;
  while (i < end) {
    const d = s.charCodeAt(i);
    if (d === COMMA || d === SPACE) break;
    i++;
  }
  valueEnd = i;
  const n = i - start;
  if (c === 0x74 /* t */) return n === 1 || (n === 4 && s.startsWith('true', start)) ? true : undefined;
  if (c === 0x66 /* f */) return n === 1 || (n === 5 && s.startsWith('false', start)) ? false : undefined;
  if (c === 0x54 /* T */) {
    return n === 1 || (n === 4 && (s.startsWith('TRUE', start) || s.startsWith('True', start))) ? true : undefined;
  }
  if (c === 0x46 /* F */) {
    return n === 1 || (n === 5 && (s.startsWith('FALSE', start) || s.startsWith('False', start))) ? false : undefined;
  }
  return undefined;
}

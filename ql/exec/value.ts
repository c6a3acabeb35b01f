/**
 * Scalar values produced by the executor and the InfluxDB 1.x typing rules for them.
 *
 * Representation: floats are `number`; integers and unsigned integers are `number` while they
 * are safe integers and `bigint` beyond 2^53 (the same canonical form as the engine's
 * FieldValue, so `===` compares equal values); booleans are `boolean`; strings `string`;
 * a missing value is `null`. Integer arithmetic follows Go: int64 and uint64 wrap around.
 */
import { FieldType } from '../../engine/index.js';
import type { ValueColumn } from '../../engine/index.js';

export type Scalar = number | bigint | string | boolean | null;

/** An integer in canonical form: `number` when safe, `bigint` otherwise. */
export type IntValue = number | bigint;

/** One output row: `time` is set by selectors (the selected point's time) and transforms. */
export interface ResultRow {
  time?: bigint;
  value: Scalar;
  /** The group's series the selected point came from (sample(), top(), bottom()), for its auxiliary fields. */
  series?: number;
}

/** A point in a time-ordered stream (input of transforms and fill). */
export interface TimedValue {
  time: bigint;
  value: Scalar;
}

/** Canonical integer: number when it is a safe integer, else bigint. */
export function canonInt(v: bigint): IntValue {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/** Go int64 arithmetic result (wrap-around), canonical form. */
export function wrapInt64(v: bigint): IntValue {
  return canonInt(BigInt.asIntN(64, v));
}

/** Go uint64 arithmetic result (wrap-around), canonical form. */
export function wrapUint64(v: bigint): IntValue {
  return canonInt(BigInt.asUintN(64, v));
}

export function toBig(v: IntValue): bigint {
  return typeof v === 'bigint' ? v : BigInt(v);
}

/** Go `float64(v)` for an integer value (round to nearest even, as the conversion does). */
export function intToFloat(v: IntValue): number {
  return typeof v === 'bigint' ? Number(v) : v;
}

/** Go int64 subtraction a - b with wrap-around. */
export function subInt(a: IntValue, b: IntValue, unsigned: boolean): IntValue {
  if (typeof a === 'number' && typeof b === 'number') {
    const d = a - b;
    if (Number.isSafeInteger(d) && (!unsigned || d >= 0)) return d;
  }
  const d = toBig(a) - toBig(b);
  return unsigned ? wrapUint64(d) : wrapInt64(d);
}

/** Go int64 / uint64 addition with wrap-around. */
export function addInt(a: IntValue, b: IntValue, unsigned: boolean): IntValue {
  if (typeof a === 'number' && typeof b === 'number') {
    const s = a + b;
    if (Number.isSafeInteger(s)) return s;
  }
  const s = toBig(a) + toBig(b);
  return unsigned ? wrapUint64(s) : wrapInt64(s);
}

/** Is the column numeric (float, integer or unsigned)? */
export function isNumericType(t: FieldType): boolean {
  return t === FieldType.Float || t === FieldType.Integer || t === FieldType.Unsigned;
}

export function isIntegerType(t: FieldType): boolean {
  return t === FieldType.Integer || t === FieldType.Unsigned;
}

/** The value at index i of a column, as a Scalar in canonical form. */
export function cellAt(column: ValueColumn, i: number): Scalar {
  switch (column.type) {
    case FieldType.Float:
      return column.values[i] as number;
    case FieldType.Integer:
    case FieldType.Unsigned: {
      const v = column.values[i] as number | bigint;
      return typeof v === 'bigint' ? canonInt(v) : v;
    }
    case FieldType.Boolean:
      return column.values[i] === 1;
    case FieldType.String:
      return column.values[i] as string;
  }
}

/** Numeric value at i (float as number, integers canonical). Only for numeric columns. */
export function numAt(column: ValueColumn, i: number): number | bigint {
  const v = column.values[i] as number | bigint | string;
  if (typeof v === 'bigint') return canonInt(v);
  return v as number;
}

/**
 * Go string order (UTF-8 bytes, i.e. code points) for JS strings: UTF-16 code units order
 * the same except surrogates, which must sort above U+E000..U+FFFF.
 */
export function compareStrings(x: string, y: string): number {
  if (x === y) return 0;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    let a = x.charCodeAt(i);
    let b = y.charCodeAt(i);
    if (a === b) continue;
    if (a >= 0xd800 && a <= 0xdfff) a += 0x2800;
    if (b >= 0xd800 && b <= 0xdfff) b += 0x2800;
    return a < b ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : 1;
}

/** Compare two scalars of one type (numbers/bigints mixed, strings as Go, false < true). */
export function compareScalar(a: Scalar, b: Scalar): number {
  if (typeof a === 'string' || typeof b === 'string') return compareStrings(String(a), String(b));
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Cast a fill value to a column type as 1.x castTo<Type> does: numbers to float, float to
 * integer by truncation toward zero; a value that does not cast gives the type's zero value.
 */
export function castFillValue(v: Scalar, t: FieldType): Scalar {
  switch (t) {
    case FieldType.Float:
      return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
    case FieldType.Integer:
    case FieldType.Unsigned: {
      if (typeof v === 'bigint') return t === FieldType.Unsigned ? wrapUint64(v) : wrapInt64(v);
      if (typeof v !== 'number' || !Number.isFinite(v)) return 0;
      const tr = Math.trunc(v);
      return Number.isSafeInteger(tr) ? (t === FieldType.Unsigned && tr < 0 ? wrapUint64(BigInt(tr)) : tr) : canonInt(BigInt(tr));
    }
    case FieldType.String:
      return typeof v === 'string' ? v : '';
    case FieldType.Boolean:
      return typeof v === 'boolean' ? v : false;
  }
}

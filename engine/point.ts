/**
 * Points and field values as the engine sees them.
 *
 * Time never travels as one BigInt per point: a timestamp is split into whole seconds since
 * the epoch (`sec`, an integer double, may be negative) and nanoseconds within that second
 * (`nsec`, 0..999_999_999). Both are exact for every int64 nanosecond timestamp.
 */

/** Field types; the numeric codes are InfluxDB's TSM block types and are part of the on-disk format. */
export const FieldType = {
  Float: 0,
  Integer: 1,
  Boolean: 2,
  String: 3,
  Unsigned: 4,
} as const;
export type FieldType = (typeof FieldType)[keyof typeof FieldType];

/** 1.x names, as SHOW FIELD KEYS and type-conflict errors print them. */
export const FIELD_TYPE_NAMES: Readonly<Record<FieldType, string>> = {
  [FieldType.Float]: 'float',
  [FieldType.Integer]: 'integer',
  [FieldType.Boolean]: 'boolean',
  [FieldType.String]: 'string',
  [FieldType.Unsigned]: 'unsigned',
};

/**
 * One field value. Integer and unsigned values are `number` when they are safe integers and
 * `bigint` only beyond 2^53 (rare), so the common path allocates no BigInt.
 */
export type FieldValue =
  | { readonly type: typeof FieldType.Float; readonly value: number }
  | { readonly type: typeof FieldType.Integer; readonly value: number | bigint }
  | { readonly type: typeof FieldType.Unsigned; readonly value: number | bigint }
  | { readonly type: typeof FieldType.Boolean; readonly value: boolean }
  | { readonly type: typeof FieldType.String; readonly value: string };

export type Field = FieldValue & { readonly key: string };

export interface Tag {
  readonly key: string;
  readonly value: string;
}

export interface Point {
  /**
   * Canonical series key: measurement and tags sorted by key, escaped as in line protocol
   * (`cpu,host=a,region=us\ east`). Equal series always produce byte-identical keys.
   */
  readonly seriesKey: string;
  readonly measurement: string;
  /** Sorted by key in byte order, keys unique, no empty values. */
  readonly tags: readonly Tag[];
  /**
   * Non-empty, keys unique, except as the parser hands out a line that gave a key two types
   * (FieldSet.dedupe): such a point is a field type conflict and is never stored.
   */
  readonly fields: readonly Field[];
  readonly sec: number;
  readonly nsec: number;
}

/** Write precision units; `ns` is the default. See decisions.md for the accepted spellings. */
export type Precision = 'ns' | 'us' | 'ms' | 's' | 'm' | 'h';

/**
 * A typed column of values, parallel to a times column. Integer/unsigned columns are
 * Float64Array while every value is a safe integer and switch to BigInt64Array /
 * BigUint64Array only when one is not.
 */
export type ValueColumn =
  | { readonly type: typeof FieldType.Float; readonly values: Float64Array }
  | { readonly type: typeof FieldType.Integer; readonly values: Float64Array | BigInt64Array }
  | { readonly type: typeof FieldType.Unsigned; readonly values: Float64Array | BigUint64Array }
  | { readonly type: typeof FieldType.Boolean; readonly values: Uint8Array }
  | { readonly type: typeof FieldType.String; readonly values: readonly string[] };

/**
 * Growable typed column for merge output. Integer/unsigned builders start as Float64 and
 * widen to BigInt64/BigUint64 only if a wide source column is appended.
 */
import { FieldType, type ValueColumn } from '../point.js';

export class ColumnBuilder {
  private f64: Float64Array | undefined;
  private wide: BigInt64Array | BigUint64Array | undefined;
  private bools: Uint8Array | undefined;
  private strings: string[] | undefined;
  length = 0;

  constructor(
    readonly type: FieldType,
    private capacity: number,
  ) {
    this.reset();
  }

  reset(): void {
    this.length = 0;
    this.wide = undefined;
    if (this.type === FieldType.Boolean) this.bools = new Uint8Array(this.capacity);
    else if (this.type === FieldType.String) this.strings = [];
    else this.f64 = new Float64Array(this.capacity);
  }

  /**
   * Empties the builder and keeps its arrays for the next rows (reset allocates new ones):
   * for a writer that is done with the previous column() before it appends again.
   */
  clear(): void {
    this.length = 0;
    this.wide = undefined;
    this.strings &&= [];
  }

  private widen(): void {
    const w = this.type === FieldType.Unsigned ? new BigUint64Array(this.capacity) : new BigInt64Array(this.capacity);
    const f = this.f64!;
    for (let i = 0; i < this.length; i++) w[i] = BigInt(f[i]!);
    this.wide = w;
  }

  appendRange(col: ValueColumn, from: number, to: number): void {
    const v = col.values;
    if (this.strings) {
      for (let i = from; i < to; i++) this.strings.push((v as readonly string[])[i]!);
    } else if (this.bools) {
      this.bools.set((v as Uint8Array).subarray(from, to), this.length);
    } else if (v instanceof Float64Array) {
      if (this.wide) for (let i = from; i < to; i++) this.wide[this.length + i - from] = BigInt(v[i]!);
      else this.f64!.set(v.subarray(from, to), this.length);
    } else {
      if (!this.wide) this.widen();
      (this.wide as BigInt64Array).set((v as BigInt64Array).subarray(from, to), this.length);
    }
    this.length += to - from;
  }

  /** The built column (a view: valid until the next reset). */
  column(): ValueColumn {
    const n = this.length;
    switch (this.type) {
      case FieldType.Float:
        return { type: FieldType.Float, values: this.f64!.subarray(0, n) };
      case FieldType.Integer:
        return { type: FieldType.Integer, values: this.wide ? (this.wide as BigInt64Array).subarray(0, n) : this.f64!.subarray(0, n) };
      case FieldType.Unsigned:
        return { type: FieldType.Unsigned, values: this.wide ? (this.wide as BigUint64Array).subarray(0, n) : this.f64!.subarray(0, n) };
      case FieldType.Boolean:
        return { type: FieldType.Boolean, values: this.bools!.subarray(0, n) };
      case FieldType.String:
        return { type: FieldType.String, values: this.strings! };
    }
  }
}

/** A column holding rows [from, to) of `col` (views for typed arrays). */
export function sliceColumn(col: ValueColumn, from: number, to: number): ValueColumn {
  switch (col.type) {
    case FieldType.String:
      return { type: col.type, values: col.values.slice(from, to) };
    case FieldType.Float:
      return { type: col.type, values: col.values.subarray(from, to) };
    case FieldType.Integer:
      return { type: col.type, values: col.values.subarray(from, to) };
    case FieldType.Unsigned:
      return { type: col.type, values: col.values.subarray(from, to) };
    case FieldType.Boolean:
      return { type: col.type, values: col.values.subarray(from, to) };
  }
}

/** Reverses a column the caller owns (freshly decoded) in place, without a copy; returns it. */
export function reverseOwnedColumn(col: ValueColumn): ValueColumn {
  (col.values as { reverse(): unknown }).reverse();
  return col;
}

/** Rows from..to of a column, copied (the caller may reuse `col`'s buffers afterwards). */
export function copyColumn(col: ValueColumn, from: number, to: number): ValueColumn {
  // Every representation's slice() copies; the type tag stays with its own representation.
  return { type: col.type, values: col.values.slice(from, to) } as ValueColumn;
}

/** Reverse a column (descending cursors). Returns a new column. */
export function reverseColumn(col: ValueColumn): ValueColumn {
  switch (col.type) {
    case FieldType.String:
      return { type: col.type, values: [...col.values].reverse() };
    case FieldType.Float:
      return { type: col.type, values: col.values.slice().reverse() };
    case FieldType.Integer:
      return { type: col.type, values: col.values.slice().reverse() };
    case FieldType.Unsigned:
      return { type: col.type, values: col.values.slice().reverse() };
    case FieldType.Boolean:
      return { type: col.type, values: col.values.slice().reverse() };
  }
}

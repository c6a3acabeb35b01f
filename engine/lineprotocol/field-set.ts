/**
 * The field set of the line being parsed, as parallel arrays reused for every line of a body.
 *
 * Why not Field objects: on the ingest hot path a line has 1–10 fields, and an object per
 * field (plus an array per line) was most of the parse worker's garbage. The column builder
 * reads these arrays straight into its columns; only the Point path (main-thread fallback,
 * CLI import) turns them into Field objects with `toFields`.
 *
 * A value is `nums[i]` (floats, safe integers, booleans as 0/1) unless `boxes[i]` holds it
 * (strings, and integers beyond 2^53 as bigint).
 */
import { FieldType, type Field } from '../point.js';
import { objectArray } from '../object-array.js';

export class FieldSet {
  count = 0;
  keys: string[] = objectArray();
  types = new Uint8Array(16);
  nums = new Float64Array(16);
  boxes: (string | bigint | undefined)[] = objectArray();

  push(key: string, type: FieldType, num: number, box: string | bigint | undefined): void {
    const i = this.count;
    if (i === this.types.length) this.grow();
    this.keys[i] = key;
    this.types[i] = type;
    this.nums[i] = num;
    this.boxes[i] = box;
    this.count = i + 1;
  }

  type(i: number): FieldType {
    return this.types[i] as FieldType;
  }

  /** Value i as Point fields and the cache hold it. */
  value(i: number): number | bigint | boolean | string {
    const box = this.boxes[i];
    if (box !== undefined) return box;
    return this.types[i] === FieldType.Boolean ? this.nums[i] === 1 : this.nums[i]!;
  }

  toFields(): Field[] {
    const out: Field[] = new Array<Field>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = { type: this.type(i), value: this.value(i), key: this.keys[i]! } as Field;
    return out;
  }

  /**
   * Keeps the last value for each repeated key, at the position of its first occurrence (1.x
   * keeps one value per key). A repeat of another type than the first occurrence stays as a
   * field of its own: 1.x checks the type of every occurrence, so such a line is a field type
   * conflict (the point refused, or the batch when the field is new), never stored.
   * Returns true when the keys were already distinct.
   */
  dedupe(): boolean {
    const n = this.count;
    const keys = this.keys;
    let distinct = true;
    if (n <= 32) {
      for (let a = 1; a < n && distinct; a++) {
        const k = keys[a]!;
        for (let b = 0; b < a; b++) if (keys[b] === k) distinct = false;
      }
    } else {
      distinct = new Set(keys.slice(0, n)).size === n;
    }
    if (distinct) return true;
    const at = new Map<string, number>();
    let w = 0;
    for (let r = 0; r < n; r++) {
      const prev = at.get(keys[r]!);
      const to = prev !== undefined && this.types[prev] === this.types[r] ? prev : w++;
      if (prev === undefined) at.set(keys[r]!, to);
      keys[to] = keys[r]!;
      this.types[to] = this.types[r]!;
      this.nums[to] = this.nums[r]!;
      this.boxes[to] = this.boxes[r];
    }
    this.count = w;
    return false;
  }

  private grow(): void {
    const types = new Uint8Array(this.types.length * 2);
    types.set(this.types);
    this.types = types;
    const nums = new Float64Array(this.nums.length * 2);
    nums.set(this.nums);
    this.nums = nums;
  }
}

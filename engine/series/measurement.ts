/**
 * Per-measurement index: series ids, tag key → tag value → postings, field types.
 * Series ids are allocated in increasing order, so appending keeps postings sorted.
 */
import type { FieldType, Tag } from '../point.js';
import { difference } from './postings.js';
import { schemaChanged } from '../meta/schema-version.js';

export class MeasurementIndex {
  /** Sorted series ids of live series. */
  seriesIds: number[] = [];
  readonly tags = new Map<string, Map<string, number[]>>();
  readonly fields = new Map<string, FieldType>();

  constructor(readonly name: string) {}

  addSeries(id: number, tags: readonly Tag[]): void {
    this.seriesIds.push(id);
    for (const t of tags) {
      let values = this.tags.get(t.key);
      if (!values) {
        values = new Map();
        this.tags.set(t.key, values);
        schemaChanged();
      }
      const list = values.get(t.value);
      if (list) list.push(id);
      else values.set(t.value, [id]);
    }
  }

  /** Distinct values already seen for `key` (cardinality checks). */
  tagValueCount(key: string): number {
    return this.tags.get(key)?.size ?? 0;
  }

  hasTagValue(key: string, value: string): boolean {
    return this.tags.get(key)?.has(value) ?? false;
  }

  /** Remove series (sorted ids); empty tag values and keys disappear as in 1.x. */
  removeSeries(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.seriesIds = difference(this.seriesIds, ids);
    for (const [key, values] of this.tags) {
      for (const [value, list] of values) {
        const rest = difference(list, ids);
        if (rest.length === 0) values.delete(value);
        else values.set(value, rest);
      }
      if (values.size === 0) {
        this.tags.delete(key);
        schemaChanged();
      }
    }
  }

  tagKeys(): string[] {
    return [...this.tags.keys()].sort(byteOrder);
  }
}

/** Byte-order comparison of strings (as 1.x sorts names): UTF-16 order differs above U+FFFF only. */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Several sources with one measurement name (`FROM cpu, cpu`, `FROM db0..cpu, db1..cpu`, a regex
 * and a name that both match) read as one measurement: 1.x merges their iterators by series
 * name, so the answer has one `cpu` series holding the rows of every source (duplicates kept).
 */
import type { Cursor, FieldType, TagExpr } from '../../engine/index.js';
import type { MeasurementSource, SeriesRef } from './source.js';

interface PartRef extends SeriesRef {
  readonly part: number;
  readonly inner: SeriesRef;
}

export class UnionSource implements MeasurementSource {
  private fields: ReadonlyMap<string, FieldType> | undefined;

  constructor(readonly parts: readonly MeasurementSource[]) {}

  /** A subquery is among the parts: a raw SELECT merges the parts by their heads (raw-merge-heap.ts). */
  get hasSubquery(): boolean {
    return this.parts.some((p) => p.fromSubquery === true);
  }

  /** The index in `parts` of the part one of series()'s refs comes from. */
  partOf(ref: SeriesRef): number {
    return (ref as PartRef).part;
  }

  get name(): string {
    return this.parts[0]!.name;
  }

  fieldTypes(): ReadonlyMap<string, FieldType> {
    if (!this.fields) {
      const out = new Map<string, FieldType>();
      for (const p of this.parts) for (const [k, t] of p.fieldTypes()) if (!out.has(k)) out.set(k, t);
      this.fields = out;
    }
    return this.fields;
  }

  fieldsFromTags(): ReadonlySet<string> {
    return new Set(this.parts.flatMap((p) => [...(p.fieldsFromTags?.() ?? [])]));
  }

  unlistedFields(): ReadonlySet<string> {
    return new Set(this.parts.flatMap((p) => [...(p.unlistedFields?.() ?? [])]));
  }

  untypedFields(): ReadonlySet<string> {
    return new Set(this.parts.flatMap((p) => [...(p.untypedFields?.() ?? [])]));
  }

  groupTags(): ReadonlySet<string> {
    return new Set(this.parts.flatMap((p) => [...(p.groupTags?.() ?? [])]));
  }

  tagKeys(): readonly string[] {
    return [...new Set(this.parts.flatMap((p) => p.tagKeys()))].sort();
  }

  series(expr: TagExpr): readonly SeriesRef[] {
    const out: PartRef[] = [];
    // The part number keeps keys unique (the same series may exist in every part) and sorted.
    this.parts.forEach((p, part) => {
      for (const s of p.series(expr)) out.push({ key: `${s.key}\u0000${part}`, tags: s.tags, part, inner: s, ...(s.lane && { lane: s.lane }) });
    });
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  cursor(series: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor {
    const ref = series as PartRef;
    return this.parts[ref.part]!.cursor(ref.inner, field, minNs, maxNs, ascending);
  }

  rowCursor(series: SeriesRef, minNs: bigint, maxNs: bigint, ascending: boolean, everyRow?: boolean): Cursor | undefined {
    const ref = series as PartRef;
    return this.parts[ref.part]!.rowCursor?.(ref.inner, minNs, maxNs, ascending, everyRow);
  }
}

/** Replace sources that share a name by one UnionSource each; order by name as before. */
export function mergeSameName(sources: readonly MeasurementSource[]): MeasurementSource[] {
  const byName = new Map<string, MeasurementSource[]>();
  for (const s of sources) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  const out: MeasurementSource[] = [];
  for (const [, group] of byName) out.push(group.length === 1 ? group[0]! : new UnionSource(group));
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Where SELECT reads from: a measurement seen as series with typed fields. The engine
 * implements it over the series index and cursors; subqueries implement it over their
 * results (held whole, or one inner series at a time: subquery-stream.ts), so one executor
 * serves both.
 */
import type { Cursor, FieldType, TagExpr } from '../../engine/index.js';
import type { WindowSpec } from './window.js';

export interface SeriesRef {
  /** Stable identity and sort key (the canonical series key for stored data). */
  readonly key: string;
  readonly tags: Readonly<Record<string, string>>;
  /** One lane of a subquery series whose rows share times (subquery-source.ts): `of` names the series. */
  readonly lane?: { readonly of: string; readonly index: number };
  /** Stored data: read only the shards starting at these seconds (SLIMIT per shard, shard-tag-sets.ts). */
  readonly shardStarts?: ReadonlySet<number>;
}

export interface MeasurementSource {
  readonly name: string;
  /** Rows come from a subquery's result, not from storage (1.x's storage-only quirks do not apply). */
  readonly fromSubquery?: boolean;
  /** The rows are the runs of an interleaved inner fill, in stream order (run-stream-windows.ts). */
  readonly runStream?: boolean;
  /** A raw SELECT reads this source's series one after the other, not merged by time (subquery-statement.ts). */
  readonly rowsInSeriesOrder?: boolean;
  /** A raw SELECT puts rows sharing a time in series order, in either direction (subquery-statement.ts). */
  readonly tiesInSeriesOrder?: boolean;
  /** A raw SELECT puts the rows of one of these windows series by series (subquery-statement.ts seriesWindows). */
  readonly seriesWindows?: WindowSpec;
  /** Field name → type. */
  fieldTypes(): ReadonlyMap<string, FieldType>;
  tagKeys(): readonly string[];
  /** Series matching `expr`, sorted by key. */
  series(expr: TagExpr): readonly SeriesRef[];
  /**
   * Fields that hold tag values of an inner query (subqueries): readable like fields, but left
   * out of wildcard calls such as `count(*)`, as in 1.x.
   */
  fieldsFromTags?(): ReadonlySet<string>;
  /** Fields an outer `*` or regex does not list but a name reads: an inner top()/bottom()'s tag columns (1.x). */
  unlistedFields?(): ReadonlySet<string>;
  /** Fields of no type (an inner call 1.x types Unknown): listed by an outer `*`, null in every row. */
  untypedFields?(): ReadonlySet<string>;
  /**
   * Stored data: [minNs, maxNs] cut at the storage shards it meets, oldest first (1.x runs a
   * selector's LIMIT head per shard: selector-input-cut.ts). Absent: one range.
   */
  shardRanges?(minNs: bigint, maxNs: bigint): readonly { readonly min: bigint; readonly max: bigint }[];
  /** Values of one field of one series in [minNs, maxNs]. */
  cursor(series: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor;
  /**
   * A subquery's own GROUP BY tags: 1.x's subquery iterator reads an outer column of that name
   * as a value every inner row has (subquery.go buildAuxIterator's TagMap), fields or none.
   */
  groupTags?(): ReadonlySet<string>;
  /**
   * Every row of the series in [minNs, maxNs] as a boolean column, for sources whose rows exist
   * even where every field is null (a subquery's fill(previous) and fill(linear) rows, which
   * 1.x hands to the outer query; `everyRow`: any subquery's, read for one of its groupTags);
   * undefined where a row needs a value.
   */
  rowCursor?(series: SeriesRef, minNs: bigint, maxNs: bigint, ascending: boolean, everyRow?: boolean): Cursor | undefined;
}

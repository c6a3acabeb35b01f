/**
 * What the executor produces and the server serialises: one StatementResult per statement,
 * each with series of rows. When `columns[0] === 'time'` (or `timeColumn` is set: the time
 * column under an alias), cell 0 of every row is the row time as a bigint of ns (formatted per `epoch` by the server). Integers beyond 2^53 are
 * bigint so they print exactly; other numbers are JS numbers.
 */
import type { FieldType } from '../engine/index.js';

export type Cell = number | bigint | string | boolean | null;

export interface ResultSeries {
  readonly name?: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly columns: readonly string[];
  /** Column 0 is the row time although it is not named `time` (`SELECT time AS t, ...`). */
  readonly timeColumn?: boolean;
  /** Columns holding tag values (raw SELECT); a subquery over this result keeps them out of `count(*)`. */
  readonly tagColumns?: readonly string[];
  /** Subqueries only: top()/bottom()'s tag columns, which an outer `*` or regex does not list (1.x). */
  readonly unlistedColumns?: readonly string[];
  readonly values: readonly (readonly Cell[])[];
  /** Set on all but the last chunk of a series split by chunk_size. */
  readonly partial?: boolean;
  /**
   * SELECT ... INTO and subqueries only: each column's type (index 0 is the time column), where the statement
   * says it; a cell does not tell an integer 76 from a float 76.
   */
  readonly columnTypes?: readonly (FieldType | undefined)[];
  /** Subqueries only: each column's 1.x field name (Column.fieldName; index 0 is the time column). */
  readonly fieldNames?: readonly string[];
  /**
   * Columns 1.x holds as a Go `int` (SHOW RETENTION POLICIES' replicaN): its CSV writer has no
   * case for that type and leaves the header's text in the cell. JSON shows the number.
   */
  readonly goIntColumns?: readonly number[];
}

/** Is cell 0 of each row the row time (a bigint of ns)? */
export function hasTimeColumn(s: ResultSeries): boolean {
  return s.timeColumn === true || s.columns[0] === 'time';
}

export interface ResultMessage {
  readonly level: string;
  readonly text: string;
}

export interface StatementResult {
  readonly statementId: number;
  readonly series?: readonly ResultSeries[];
  readonly messages?: readonly ResultMessage[];
  readonly error?: string;
  /** Chunked responses: more chunks of this statement follow. */
  readonly partial?: boolean;
  /** TZ('...') of a SELECT: RFC 3339 times are rendered with that zone's offset (not serialised). */
  readonly timeZone?: string;
}

/**
 * Typed query-execution errors. Messages reproduce InfluxDB 1.x texts where clients may show them.
 */
import { StrataError, FIELD_TYPE_NAMES } from '../../engine/index.js';
import type { FieldType } from '../../engine/index.js';

/** A query that cannot be executed as written (HTTP 400 unless stated). */
export class QueryError extends StrataError {
  constructor(message: string, code = 'query_error', status = 400) {
    super(code, status, message);
  }
}

/**
 * A function applied to a field type it does not support. 1.x reports the Go iterator type,
 * e.g. `unsupported mean iterator type: *query.booleanInterruptIterator`; `fn` is the name 1.x
 * prints (`moving average`, `cumulative sum`, `difference` for non_negative_difference, ...).
 * `iterator` is the Go iterator's kind where it is not the interrupt iterator that wraps most
 * inputs: a transform over distinct() reads its `Interval` iterator, over sample() its
 * `Reduce` iterator (`*query.stringReduceStringIterator`).
 */
export class UnsupportedTypeError extends QueryError {
  constructor(
    readonly fn: string,
    readonly fieldType: FieldType,
    iterator: 'Interrupt' | 'Interval' | 'Reduce' = 'Interrupt',
  ) {
    const type = FIELD_TYPE_NAMES[fieldType];
    const kind = iterator === 'Reduce' ? `Reduce${type.charAt(0).toUpperCase()}${type.slice(1)}` : iterator;
    super(`unsupported ${fn} iterator type: *query.${type}${kind}Iterator`, 'unsupported_type');
  }
}

/** `TZ('X')` names a zone the runtime does not know (1.x reports it as a parse error). */
export class UnknownTimeZoneError extends QueryError {
  constructor(readonly zone: string) {
    super(`unable to find time zone ${zone}`, 'unknown_time_zone');
  }
}

/**
 * Typed errors of the query layer. Texts follow InfluxDB 1.x (influxql/parser.go) because clients
 * (the influx CLI, Grafana) show them verbatim: a parse error answers HTTP 400 with
 * `{"error": "error parsing query: <detail>"}`.
 */
import { StrataError } from '../engine/index.js';

/** A 1-based source position, as InfluxQL prints it ("at line L, char C"; chars count code points). */
export interface SourcePos {
  readonly line: number;
  readonly char: number;
}

/** Prefix the 1.x HTTP handler puts in front of every parse error. */
export const PARSE_ERROR_PREFIX = 'error parsing query: ';

/**
 * A statement could not be parsed. Three shapes, as in influxql.ParseError and the plain Go errors the
 * 1.x parser returns:
 * - `found X, expected A, B at line L, char C` (found + expected + pos),
 * - `<message> at line L, char C` (message + pos),
 * - `<message>` (message only, e.g. `missing parameter: host`, `unable to find time zone X`).
 * `message` carries the `error parsing query: ` prefix; `detail` is the bare 1.x text.
 */
export class ParseError extends StrataError {
  readonly detail: string;
  /** 1-based line and char of the error, or null for the position-less 1.x errors. */
  readonly line: number | null;
  readonly char: number | null;

  private constructor(
    detail: string,
    readonly found: string | null,
    readonly expected: readonly string[],
    readonly pos: SourcePos | null,
  ) {
    super('parse_error', 400, PARSE_ERROR_PREFIX + detail);
    this.detail = detail;
    this.line = pos?.line ?? null;
    this.char = pos?.char ?? null;
  }

  /** `found X, expected A, B at line L, char C`. */
  static unexpected(found: string, expected: readonly string[], pos: SourcePos): ParseError {
    const text = `found ${found}, expected ${expected.join(', ')} at line ${pos.line}, char ${pos.char}`;
    return new ParseError(text, found, expected, pos);
  }

  /** `<message> at line L, char C`. */
  static at(message: string, pos: SourcePos): ParseError {
    return new ParseError(`${message} at line ${pos.line}, char ${pos.char}`, null, [], pos);
  }

  /** A message without position (1.x returns a plain error there). */
  static plain(message: string): ParseError {
    return new ParseError(message, null, [], null);
  }
}

/** A well-formed query that cannot be executed (bad bind parameters, unknown database, ...). */
export class QueryError extends StrataError {
  constructor(message: string, status = 400, code = 'query_error', options?: { cause?: unknown }) {
    super(code, status, message, options);
  }
}

export { InvariantError } from '../engine/index.js';

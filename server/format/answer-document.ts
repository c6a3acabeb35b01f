/**
 * How a streamed non-chunked answer (unchunked-answer.ts) is written in one format. The answer
 * decides what goes out when, and when a body must be cut; the document only says how each
 * part reads, so the streamed body is the text the format's buffered writer would make of
 * the same results (json.ts `resultsToJson`, csv.ts `resultsToCsv`).
 */
import type { ResultSeries, StatementResult } from '../../ql/index.js';

export interface AnswerDocument {
  /** Text before the first statement. */
  begin(): string;
  /** A statement answered whole (its series were not streamed). */
  statement(result: StatementResult): string;
  /** Opens statement `id`, whose series are streamed. */
  openStatement(id: number): string;
  /**
   * Rows of the open statement: the piece continues the series the previous piece left open,
   * or starts one; `more` leaves it open for the next piece.
   */
  piece(id: number, series: ResultSeries, more: boolean): string;
  /** Closes the open statement with its (error-free) result. */
  closeStatement(result: StatementResult): string;
  /** Ends the document; `notExecuted`: 1.x's trailing `not executed` after a failure. */
  end(notExecuted: StatementResult | undefined): string;
}

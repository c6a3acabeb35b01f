/**
 * The compact JSON answer as a streamed document: `{"results":[...]}` written statement by
 * statement and series by series, identical to json.ts `resultsToJson` (non-pretty) of the
 * same results once merged.
 */
import type { ResultSeries, StatementResult } from '../../ql/index.js';
import { hasTimeColumn } from '../../ql/index.js';
import type { AnswerDocument } from './answer-document.js';
import type { Epoch } from './epoch.js';
import { rowsJson } from './json-rows.js';
import { compactSeriesHead, compactStatement, compactStatementTail, EMITTER_CHUNK_ROWS, timeText } from './json.js';

/** The series being written: its values array is open. */
interface OpenSeries {
  rows: number;
  readonly timeFirst: boolean;
  readonly time: (ns: bigint) => string | bigint;
}

export class JsonDocument implements AnswerDocument {
  #statements = 0;
  #seriesInStatement = 0;
  #open: OpenSeries | undefined;

  constructor(
    private readonly epoch: Epoch | undefined,
    /** Statement i's TZ() zone, in which its RFC 3339 times are printed. */
    private readonly timeZoneOf: (statementId: number) => string | undefined,
  ) {}

  begin(): string {
    return '{"results":[';
  }

  statement(result: StatementResult): string {
    return this.#comma() + compactStatement(result, this.epoch);
  }

  openStatement(id: number): string {
    this.#seriesInStatement = 0;
    return this.#comma() + '{"statement_id":' + String(id) + ',"series":[';
  }

  piece(id: number, series: ResultSeries, more: boolean): string {
    let text = '';
    if (this.#open) {
      if (series.values.length > 0) text += this.#rows(series.values, true);
    } else if (series.values.length > 0) {
      text += (this.#seriesInStatement++ > 0 ? ',' : '') + this.#openSeries(id, series) + this.#rows(series.values, false);
    }
    if (!more) text += this.#closeSeries();
    return text;
  }

  closeStatement(result: StatementResult): string {
    return this.#closeSeries() + ']' + compactStatementTail(result);
  }

  end(notExecuted: StatementResult | undefined): string {
    return (notExecuted ? this.statement(notExecuted) : '') + ']}\n';
  }

  #comma(): string {
    return this.#statements++ > 0 ? ',' : '';
  }

  #openSeries(id: number, series: ResultSeries): string {
    this.#open = { rows: 0, timeFirst: hasTimeColumn(series), time: timeText(this.epoch, this.timeZoneOf(id)) };
    return compactSeriesHead(series);
  }

  /** Rows of the open series, without the brackets of their array. */
  #rows(rows: ResultSeries['values'], afterOthers: boolean): string {
    const open = this.#open!;
    open.rows += rows.length;
    const text = rowsJson(rows, open.timeFirst, open.time);
    return (afterOthers ? ',' : '') + text.slice(1, -1);
  }

  /** Closes the open series: 1.x marks a merged series of more than one emitter chunk partial (json.ts). */
  #closeSeries(): string {
    const open = this.#open;
    if (!open) return '';
    this.#open = undefined;
    return open.rows > EMITTER_CHUNK_ROWS && open.timeFirst ? '],"partial":true}' : ']}';
  }
}

/**
 * The `pretty=true` JSON answer as a streamed document: the text json.ts `resultsToJson` makes
 * with Go's four-space indentation, written statement by statement and series by series, so
 * a large pretty answer is not held whole in memory (its indentation makes it several times
 * the compact text). Each level's indent is where Go's MarshalIndent puts it: statements at 8
 * spaces, their fields at 12, series at 16, series fields at 20, rows at 24.
 */
import type { ResultSeries, StatementResult } from '../../ql/index.js';
import { hasTimeColumn } from '../../ql/index.js';
import type { AnswerDocument } from './answer-document.js';
import type { Epoch } from './epoch.js';
import { EMITTER_CHUNK_ROWS, mergedPartial, rowJ, seriesJ, statementJ, stringify, timeText } from './json.js';

const STATEMENT = ' '.repeat(8);
const STATEMENT_FIELD = ' '.repeat(12);
const SERIES = ' '.repeat(16);
const SERIES_FIELD = ' '.repeat(20);
const ROW = ' '.repeat(24);

/** The series being written: its values array is open. */
interface OpenSeries {
  rows: number;
  readonly timeFirst: boolean;
  readonly time: (ns: bigint) => string | bigint;
}

export class PrettyJsonDocument implements AnswerDocument {
  #statements = 0;
  #seriesInStatement = 0;
  #open: OpenSeries | undefined;

  constructor(
    private readonly epoch: Epoch | undefined,
    /** Statement i's TZ() zone, in which its RFC 3339 times are printed. */
    private readonly timeZoneOf: (statementId: number) => string | undefined,
  ) {}

  begin(): string {
    return '{\n    "results": [\n';
  }

  statement(result: StatementResult): string {
    return this.#comma() + STATEMENT + stringify(statementJ(mergedPartial(result), this.epoch, true), true, STATEMENT);
  }

  openStatement(id: number): string {
    this.#seriesInStatement = 0;
    return `${this.#comma()}${STATEMENT}{\n${STATEMENT_FIELD}"statement_id": ${id},\n${STATEMENT_FIELD}"series": [\n`;
  }

  piece(id: number, series: ResultSeries, more: boolean): string {
    let text = '';
    if (this.#open) {
      if (series.values.length > 0) text += ',\n' + this.#rows(series.values);
    } else if (series.values.length > 0) {
      text += (this.#seriesInStatement++ > 0 ? ',\n' : '') + this.#openSeries(id, series) + this.#rows(series.values);
    }
    if (!more) text += this.#closeSeries();
    return text;
  }

  closeStatement(result: StatementResult): string {
    // The statement's own fields after its series, as statementJ orders them; the id and series were written.
    const tail = stringify(statementJ({ ...result, series: [] }, this.epoch, true), true, STATEMENT);
    const rest = tail.slice(tail.indexOf('\n', tail.indexOf('"statement_id"')) + 1);
    return this.#closeSeries() + `\n${STATEMENT_FIELD}]` + (rest.startsWith(STATEMENT + '}') ? '\n' : ',\n') + rest;
  }

  end(notExecuted: StatementResult | undefined): string {
    return (notExecuted ? this.statement(notExecuted) : '') + '\n    ]\n}\n';
  }

  #comma(): string {
    return this.#statements++ > 0 ? ',\n' : '';
  }

  #openSeries(id: number, series: ResultSeries): string {
    this.#open = { rows: 0, timeFirst: hasTimeColumn(series), time: timeText(this.epoch, this.timeZoneOf(id)) };
    const head = stringify(seriesJ({ ...series, values: [], partial: false }, this.epoch, undefined, true), true, SERIES);
    const fields = head === "{}" ? "{\n" : head.slice(0, -(SERIES.length + 2)) + ",\n";
    return `${SERIES}${fields}${SERIES_FIELD}"values": [\n`;
  }

  /** Rows of the open series, each on its own lines, without the brackets of their array. */
  #rows(rows: ResultSeries['values']): string {
    const open = this.#open!;
    open.rows += rows.length;
    let text = '';
    for (let i = 0; i < rows.length; i++) text += (i > 0 ? ',\n' : '') + ROW + stringify(rowJ(rows[i]!, open.timeFirst, open.time), true, ROW);
    return text;
  }

  /** Closes the open series: 1.x marks a merged series of more than one emitter chunk partial (json.ts). */
  #closeSeries(): string {
    const open = this.#open;
    if (!open) return '';
    this.#open = undefined;
    const partial = open.rows > EMITTER_CHUNK_ROWS && open.timeFirst ? `,\n${SERIES_FIELD}"partial": true` : '';
    return `\n${SERIES_FIELD}]${partial}\n${SERIES}}`;
  }
}

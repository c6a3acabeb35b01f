/**
 * The JSON answer of a non-chunked /query. 1.x builds it whole; so did Strata, and 4M rows
 * took 1.5 GB of RSS (a larger answer killed the process with the heap exhausted: an edge
 * device has far less). Here the SELECTs stream their series into this answer (the executor's
 * SeriesSink, as for chunked=true). Up to `streamAfterCells` cells the series are only held,
 * and the body is built exactly as before (one buffered body with Content-Length). Past that,
 * the answer is sent as it is made: the same document, written piece by piece with chunked
 * transfer encoding, each write waiting for the client, so memory is bounded by a piece.
 *
 * A streamed answer cannot take back what it sent. Where a buffered one would say something
 * else (the running statement fails, times out or is killed after its rows went out), the
 * connection is closed mid-body (`cut`): the client sees a cut answer, never a wrong one.
 */
import type { ResultSeries, SeriesSink, StatementResult } from '../../ql/index.js';
import { hasTimeColumn } from '../../ql/index.js';
import type { Epoch } from './epoch.js';
import { rowsJson } from './json-rows.js';
import { notExecutedAfter } from './merge-results.js';
import { compactSeriesHead, compactStatement, compactStatementTail, EMITTER_CHUNK_ROWS, timeText } from './json.js';

/**
 * Held cells past which an answer is streamed: ~20-40 MB of rows as JS values, several MB of
 * JSON; answers below it are sent as before (one body, Content-Length).
 */
export const STREAM_AFTER_CELLS = 500_000;

export interface AnswerStream {
  write(text: string): Promise<void>;
  end(): void;
  /** Close the connection without ending the body. */
  abort(): void;
}

export interface UnchunkedAnswerOptions {
  readonly epoch: Epoch | undefined;
  /** Statement i's TZ() zone, in which its RFC 3339 times are printed. */
  readonly timeZoneOf: (statementId: number) => string | undefined;
  /** Held cells (rows x columns) past which the answer is streamed. */
  readonly streamAfterCells: number;
  /** Starts the 200 response's body (called at most once). */
  readonly open: () => AnswerStream;
}

/** A series held whole: the pieces its rows came in. */
interface HeldSeries {
  readonly series: ResultSeries;
  readonly pieces: ResultSeries['values'][];
}

/** The series being written: its values array is open. */
interface OpenSeries {
  rows: number;
  readonly timeFirst: boolean;
  readonly time: (ns: bigint) => string | bigint;
}

export class UnchunkedAnswer {
  /** Buffered phase: each statement's series so far, and the statements finished. */
  readonly #held = new Map<number, HeldSeries[]>();
  readonly #finished: StatementResult[] = [];
  /** The last piece pushed said its series continues. */
  #continuing = false;
  #cells = 0;
  #out: AnswerStream | undefined;
  #cut = false;
  /** Streaming phase. */
  #statementsWritten = 0;
  #lastWrittenId: number | undefined;
  #openStatement: number | undefined;
  #seriesWritten = 0;
  #openSeries: OpenSeries | undefined;
  /** Results handed to finish(), in order (their place tells the failing statement's index). */
  #resultCount = 0;
  #lastResult: StatementResult | undefined;

  constructor(private readonly opts: UnchunkedAnswerOptions) {}

  /** True once the body started going out: the status and headers are sent. */
  get streaming(): boolean {
    return this.#out !== undefined;
  }

  /** Where statement `id`'s SELECT sends its series. */
  readonly sinkFor = (id: number): SeriesSink => ({ chunkSize: EMITTER_CHUNK_ROWS, push: (s, more) => this.#push(id, s, more) });

  /** Not async: a held piece needs no promise (the executor awaits only a returned one). */
  #push(id: number, series: ResultSeries, more: boolean): void | Promise<void> {
    if (this.#cut) return;
    if (this.#out) return this.#streamPiece(id, series, more);
    let list = this.#held.get(id);
    if (list === undefined) this.#held.set(id, (list = []));
    if (this.#continuing && list.length > 0) {
      if (series.values.length > 0) list[list.length - 1]!.pieces.push(series.values);
    } else if (series.values.length > 0) list.push({ series, pieces: [series.values] });
    this.#continuing = more && (series.values.length > 0 || this.#continuing);
    this.#cells += series.values.length * series.columns.length;
    if (this.#cells > this.opts.streamAfterCells) return this.#startStreaming(id);
  }

  /** Statement results, in order, as the executor hands them over (a promise only once streaming). */
  finish(result: StatementResult): void | Promise<void> {
    const index = this.#resultCount++;
    this.#lastResult = result;
    this.#continuing = false;
    if (!this.#out) {
      const held = this.#held.get(index);
      this.#held.delete(index);
      this.#finished.push(held && result.error === undefined ? { ...result, series: [...(result.series ?? []), ...held.map(wholeSeries)] } : result);
      return;
    }
    return this.#finishStreamed(result);
  }

  async #finishStreamed(result: StatementResult): Promise<void> {
    if (this.#cut) return;
    if (result.error !== undefined && (this.#openStatement !== undefined || result.statementId === this.#lastWrittenId)) {
      // A buffered answer would show only this error in place of rows already sent.
      this.cut();
      return;
    }
    if (this.#openStatement !== undefined) {
      const text = this.#closeSeries() + ']' + compactStatementTail(result);
      this.#openStatement = undefined;
      this.#lastWrittenId = result.statementId;
      await this.#write(text);
      return;
    }
    await this.#write((this.#statementsWritten++ > 0 ? ',' : '') + compactStatement(result, this.opts.epoch));
    this.#lastWrittenId = result.statementId;
  }

  /**
   * The batch is over. Buffered: the results to answer with (series attached), for the caller to
   * merge and send. Streamed: the document is closed and undefined is returned.
   */
  end(statementCount: number): StatementResult[] | Promise<undefined> {
    if (!this.#out) {
      this.#cut = true; // an executor still winding down (killed, timed out) adds nothing now
      return this.#finished;
    }
    return this.#endStreamed(this.#out, statementCount);
  }

  async #endStreamed(out: AnswerStream, statementCount: number): Promise<undefined> {
    if (this.#cut) return undefined;
    const extra = notExecutedAfter(this.#lastResult, this.#resultCount - 1, statementCount);
    await this.#write((extra ? ',' + compactStatement(extra, undefined) : '') + ']}\n');
    out.end();
    return undefined;
  }

  /**
   * The request ended otherwise (timeout, kill, client gone): nothing more is taken, and a
   * streamed answer stops where it is (the client sees a cut body, never a wrong one).
   */
  cut(): void {
    if (this.#cut) return;
    this.#cut = true;
    this.#out?.abort();
  }

  async #startStreaming(current: number): Promise<void> {
    this.#out = this.opts.open();
    let text = '{"results":[';
    // No failure among them: a failing statement ends the batch, and nothing would stream after it.
    for (const r of this.#finished) text += (this.#statementsWritten++ > 0 ? ',' : '') + compactStatement(r, this.opts.epoch);
    this.#lastWrittenId = this.#finished[this.#finished.length - 1]?.statementId;
    this.#finished.length = 0;
    const held = this.#held.get(current) ?? [];
    this.#held.clear();
    text += (this.#statementsWritten++ > 0 ? ',' : '') + '{"statement_id":' + String(current) + ',"series":[';
    this.#openStatement = current;
    for (let i = 0; i < held.length; i++) {
      const h = held[i]!;
      text += (i > 0 ? ',' : '') + this.#openSeriesText(current, h.series);
      for (let p = 0; p < h.pieces.length; p++) text += this.#rowsText(h.pieces[p]!, p > 0);
      if (i < held.length - 1 || !this.#continuing) text += this.#closeSeries();
    }
    this.#seriesWritten = held.length;
    await this.#write(text);
  }

  async #streamPiece(id: number, series: ResultSeries, more: boolean): Promise<void> {
    if (this.#cut) return;
    let text = '';
    if (this.#openStatement !== id) {
      text += (this.#statementsWritten++ > 0 ? ',' : '') + '{"statement_id":' + String(id) + ',"series":[';
      this.#openStatement = id;
      this.#seriesWritten = 0;
    }
    if (this.#openSeries) {
      if (series.values.length > 0) text += this.#rowsText(series.values, true);
    } else if (series.values.length > 0) {
      text += (this.#seriesWritten++ > 0 ? ',' : '') + this.#openSeriesText(id, series) + this.#rowsText(series.values, false);
    }
    if (!more) text += this.#closeSeries();
    if (text !== '') await this.#write(text);
  }

  #openSeriesText(id: number, series: ResultSeries): string {
    const timeFirst = hasTimeColumn(series);
    this.#openSeries = { rows: 0, timeFirst, time: timeText(this.opts.epoch, this.opts.timeZoneOf(id)) };
    return compactSeriesHead(series);
  }

  /** Rows of the open series, without the brackets of their array. */
  #rowsText(rows: ResultSeries['values'], afterOthers: boolean): string {
    const open = this.#openSeries!;
    open.rows += rows.length;
    const text = rowsJson(rows, open.timeFirst, open.time);
    return (afterOthers ? ',' : '') + text.slice(1, -1);
  }

  /** Closes the open series: 1.x marks a merged series of more than one emitter chunk partial (json.ts). */
  #closeSeries(): string {
    const open = this.#openSeries;
    if (!open) return '';
    this.#openSeries = undefined;
    return open.rows > EMITTER_CHUNK_ROWS && open.timeFirst ? '],"partial":true}' : ']}';
  }

  async #write(text: string): Promise<void> {
    if (!this.#cut) await this.#out!.write(text);
  }
}

function wholeSeries(h: HeldSeries): ResultSeries {
  if (h.pieces.length === 1) return h.series.values === h.pieces[0] ? h.series : { ...h.series, values: h.pieces[0]! };
  return { ...h.series, values: h.pieces.flat() };
}

/**
 * The answer of a non-chunked /query, compact JSON or CSV. 1.x builds it whole; so did
 * Strata, and 4M rows took 1.5 GB of RSS (a larger answer killed the process with the heap
 * exhausted, a CSV past V8's longest string failed: an edge device has far less). Here the SELECTs stream their series into this answer (the executor's
 * SeriesSink, as for chunked=true). Up to `streamAfterCells` cells the series are only held,
 * and the body is built exactly as before (one buffered body with Content-Length). Past that,
 * the answer is sent as it is made: the same document (answer-document.ts), written piece by
 * piece with chunked transfer encoding, each write waiting for the client, so memory is bounded by a piece.
 *
 * A streamed answer cannot take back what it sent. Where a buffered one would say something
 * else (the running statement fails, times out or is killed after its rows went out), the
 * connection is closed mid-body (`cut`): the client sees a cut answer, never a wrong one.
 */
import type { ResultSeries, SeriesSink, StatementResult } from '../../ql/index.js';
import type { AnswerDocument } from './answer-document.js';
import { notExecutedAfter } from './merge-results.js';
import { EMITTER_CHUNK_ROWS } from './json.js';

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
  /** The format's streamed document (JSON or CSV), made when streaming starts. */
  readonly document: () => AnswerDocument;
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

export class UnchunkedAnswer {
  /** Buffered phase: each statement's series so far, and the statements finished. */
  readonly #held = new Map<number, HeldSeries[]>();
  readonly #finished: StatementResult[] = [];
  /** The last piece pushed said its series continues. */
  #continuing = false;
  #cells = 0;
  #out: AnswerStream | undefined;
  #doc: AnswerDocument | undefined;
  #cut = false;
  /** Streaming phase. */
  #lastWrittenId: number | undefined;
  #openStatement: number | undefined;
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
    const doc = this.#doc!;
    const text = this.#openStatement !== undefined ? doc.closeStatement(result) : doc.statement(result);
    this.#openStatement = undefined;
    this.#lastWrittenId = result.statementId;
    await this.#write(text);
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
    await this.#write(this.#doc!.end(notExecutedAfter(this.#lastResult, this.#resultCount - 1, statementCount)));
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
    const doc = (this.#doc = this.opts.document());
    let text = doc.begin();
    // No failure among them: a failing statement ends the batch, and nothing would stream after it.
    for (const r of this.#finished) text += doc.statement(r);
    this.#lastWrittenId = this.#finished[this.#finished.length - 1]?.statementId;
    this.#finished.length = 0;
    const held = this.#held.get(current) ?? [];
    this.#held.clear();
    text += doc.openStatement(current);
    this.#openStatement = current;
    for (let i = 0; i < held.length; i++) {
      const { series, pieces } = held[i]!;
      // Every series but the last is whole; the last is open if its last piece said so.
      const lastOpen = i === held.length - 1 && this.#continuing;
      for (let p = 0; p < pieces.length; p++) text += doc.piece(current, { ...series, values: pieces[p]! }, p < pieces.length - 1 || lastOpen);
    }
    await this.#write(text);
  }

  async #streamPiece(id: number, series: ResultSeries, more: boolean): Promise<void> {
    if (this.#cut) return;
    const doc = this.#doc!;
    let text = '';
    if (this.#openStatement !== id) {
      text += doc.openStatement(id);
      this.#openStatement = id;
    }
    text += doc.piece(id, series, more);
    if (text !== '') await this.#write(text);
  }

  async #write(text: string): Promise<void> {
    if (!this.#cut) await this.#out!.write(text);
  }
}

function wholeSeries(h: HeldSeries): ResultSeries {
  if (h.pieces.length === 1) return h.series.values === h.pieces[0] ? h.series : { ...h.series, values: h.pieces[0]! };
  return { ...h.series, values: h.pieces.flat() };
}

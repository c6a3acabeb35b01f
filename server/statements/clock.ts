/**
 * Times the statements of one /query request for the statement summary. The executor hands
 * each result over as soon as it is ready (ServerDeps.query's onResult); a statement's
 * execution time is the time since the previous result (or the request start). Results the
 * executor did not hand over one by one share the remaining time equally.
 */
import type { StatementResult } from '../../ql/index.js';
import type { StatementSummaries } from './summary.js';

interface Seen {
  readonly ms: number;
  readonly error: string | undefined;
}

export class StatementClock {
  readonly #seen = new Map<number, Seen>();
  #last = performance.now();

  /**
   * `texts[i]`: printed text of statement i (statementId i), or a function printing it, called
   * when the statement is recorded (after the answer is sent), not before the batch runs.
   */
  constructor(private readonly texts: readonly (string | (() => string))[]) {}

  #text(i: number): string {
    const t = this.texts[i]!;
    return typeof t === 'string' ? t : t();
  }

  result(r: StatementResult): void {
    const now = performance.now();
    if (!this.#seen.has(r.statementId)) this.#seen.set(r.statementId, { ms: now - this.#last, error: r.error });
    this.#last = now;
  }

  /** The request completed: record every statement that has a result (after a failed one the rest never ran). */
  finish(results: readonly StatementResult[], store: StatementSummaries): void {
    const byId = new Map(results.map((r) => [r.statementId, r]));
    const ran = this.texts.map((_, i) => i).filter((i) => this.#seen.has(i) || byId.has(i));
    const unseen = ran.filter((i) => !this.#seen.has(i)).length;
    const share = unseen > 0 ? (performance.now() - this.#last) / unseen : 0;
    const at = Date.now();
    for (const i of ran) {
      const seen = this.#seen.get(i);
      store.record({ text: this.#text(i), durationMs: seen?.ms ?? share, error: seen ? seen.error : byId.get(i)?.error, at });
    }
  }

  /**
   * The request failed part-way (timeout, client gone, executor error): statements with a
   * result are recorded; the first without one gets the error and the remaining time; later
   * ones never ran and are not recorded.
   */
  abandon(error: string, store: StatementSummaries): void {
    const at = Date.now();
    for (let i = 0; i < this.texts.length; i++) {
      const text = this.#text(i);
      const seen = this.#seen.get(i);
      if (seen) {
        store.record({ text, durationMs: seen.ms, error: seen.error, at });
        continue;
      }
      store.record({ text, durationMs: performance.now() - this.#last, error, at });
      return;
    }
  }
}

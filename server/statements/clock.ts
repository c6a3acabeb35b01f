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

/** A print of `s` for later; a function of its own so that it holds only `print` and `s`. */
function deferredPrint<S>(print: (s: S) => string, s: S): () => string {
  return () => print(s);
}

/** Runs once per /query request: plain arrays indexed by statementId; a closure per statement only to print it later. */
export class StatementClock<S> {
  readonly #seen: (Seen | undefined)[] = [];
  #last = performance.now();

  /**
   * `print(statements[i])`: the text of statement i (statementId i), printed when it is recorded
   * (after the answer is sent). `shapedFrom`: the request text the statements were parsed from,
   * when the summary may record them by shape and print them only when it is read (see
   * statement-text.ts shapeableText); undefined: each is printed when recorded.
   */
  constructor(
    private readonly statements: readonly S[],
    private readonly print: (s: S) => string,
    private readonly shapedFrom?: string,
  ) {}

  /** The statements' shapes when they may be recorded by shape (one per statement), else undefined. */
  #shapes(store: StatementSummaries): readonly string[] | undefined {
    const shapes = this.shapedFrom === undefined ? undefined : store.shapesOf(this.shapedFrom);
    return shapes?.length === this.statements.length ? shapes : undefined;
  }

  /** Statement i's text for the store: printed now, or (with shapes) a print the store may keep. */
  #text(i: number, shapes: readonly string[] | undefined): string | (() => string) {
    const s = this.statements[i]!;
    return shapes === undefined ? this.print(s) : deferredPrint(this.print, s);
  }

  result(r: StatementResult): void {
    const now = performance.now();
    if (this.#seen[r.statementId] === undefined) this.#seen[r.statementId] = { ms: now - this.#last, error: r.error };
    this.#last = now;
  }

  /** The request completed: record every statement that has a result (after a failed one the rest never ran). */
  finish(results: readonly StatementResult[], store: StatementSummaries): void {
    const n = this.statements.length;
    const byId: (StatementResult | undefined)[] = [];
    for (const r of results) if (r.statementId < n) byId[r.statementId] = r;
    let unseen = 0;
    for (let i = 0; i < n; i++) if (this.#seen[i] === undefined && byId[i] !== undefined) unseen++;
    const share = unseen > 0 ? (performance.now() - this.#last) / unseen : 0;
    const at = Date.now();
    const shapes = this.#shapes(store);
    for (let i = 0; i < n; i++) {
      const seen = this.#seen[i];
      const r = byId[i];
      if (seen === undefined && r === undefined) continue;
      store.record({ text: this.#text(i, shapes), shape: shapes?.[i], durationMs: seen?.ms ?? share, error: seen ? seen.error : r?.error, at });
    }
  }

  /**
   * The request failed part-way (timeout, client gone, executor error): statements with a
   * result are recorded; the first without one gets the error and the remaining time; later
   * ones never ran and are not recorded.
   */
  abandon(error: string, store: StatementSummaries): void {
    const at = Date.now();
    const shapes = this.#shapes(store);
    for (let i = 0; i < this.statements.length; i++) {
      const seen = this.#seen[i];
      if (seen) {
        store.record({ text: this.#text(i, shapes), shape: shapes?.[i], durationMs: seen.ms, error: seen.error, at });
        continue;
      }
      store.record({ text: this.#text(i, shapes), shape: shapes?.[i], durationMs: performance.now() - this.#last, error, at });
      return;
    }
  }
}

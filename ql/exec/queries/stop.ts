/**
 * How a running query is told to stop (query timeout, KILL QUERY, client gone). The executor
 * only reads `aborted` and `reason`, which an AbortSignal also has; QueryStop is the cheap
 * controller for the /query hot path: creating an AbortSignal (an EventTarget) and listening
 * on it cost several percent of a small query's whole handling time.
 */

/** What a statement checks between batches; an AbortSignal satisfies it. */
export interface StopSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
}

/** What the running-query registry stops; an AbortController satisfies it. */
export interface Stoppable {
  abort(reason?: unknown): void;
}

export class QueryStop implements StopSignal, Stoppable {
  aborted = false;
  reason: unknown = undefined;
  #listeners: ((reason: unknown) => void)[] = [];

  /** The first call wins; later reasons are ignored (as AbortController.abort). */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of this.#listeners.splice(0)) listener(reason);
  }

  /** `listener(reason)` once the query is stopped (at once when it already is). */
  onStop(listener: (reason: unknown) => void): void {
    if (this.aborted) listener(this.reason);
    else this.#listeners.push(listener);
  }
}

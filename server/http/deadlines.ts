/**
 * Deadlines of running requests (server.query_timeout_secs), checked by one timer every
 * `tickMs` instead of a setTimeout + clearTimeout per request: a timer object, its list insert
 * and its removal were a few percent of a small query's handler. A deadline fires at most one
 * tick late, which is nothing against a timeout of whole seconds. The timer runs only while
 * deadlines were added since it last found none, and never keeps the process alive.
 */
export class Deadlines {
  readonly #due = new Map<number, { readonly at: number; readonly fire: () => void }>();
  #nextId = 1;
  #timer: NodeJS.Timeout | undefined;

  constructor(readonly tickMs = 100) {}

  /** Calls `fire` once, about `inMs` from now, unless `remove`d first. Returns the id to remove. */
  add(inMs: number, fire: () => void): number {
    const id = this.#nextId++;
    this.#due.set(id, { at: performance.now() + inMs, fire });
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#sweep(), this.tickMs);
      this.#timer.unref();
    }
    return id;
  }

  remove(id: number): void {
    this.#due.delete(id);
  }

  /** Deadlines not yet fired or removed. */
  get size(): number {
    return this.#due.size;
  }

  #sweep(): void {
    if (this.#due.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = performance.now();
    for (const [id, d] of this.#due) {
      if (d.at > now) continue;
      this.#due.delete(id);
      d.fire();
    }
  }
}

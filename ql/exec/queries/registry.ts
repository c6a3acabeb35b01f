/**
 * The running-query registry behind SHOW QUERIES and KILL QUERY (1.x query.TaskManager).
 *
 * The /query route attaches each request's statement batch before it runs and detaches it when
 * the execution has really finished (not merely when the response was sent, so a timed-out
 * query that is still unwinding stays visible). Ids count from 1 per process. The text is the
 * printed batch with password literals redacted.
 *
 * - `server.max_concurrent_queries` (0 = unlimited): attach fails with 1.x's
 *   `max-concurrent-queries limit exceeded(N, M)`, which /query reports as the statement error
 *   of a 200 answer, as 1.x does.
 * - KILL QUERY aborts the query's AbortController with QueryKilledError (`query interrupted`);
 *   the executor stops at its next signal check and /query answers 200 with that error on the
 *   statement that was running (1.x). Its status shows `killed` until it has stopped.
 */
import type { Stoppable } from './stop.js';
import { QueryError } from '../../errors.js';

export interface RunningQuery {
  readonly id: number;
  readonly text: string;
  readonly database: string;
  /** Monotonic milliseconds at attach. */
  readonly startedMs: number;
  readonly status: 'running' | 'killed';
}

/** 1.x ErrMaxConcurrentQueriesLimitExceeded. */
export class TooManyQueriesError extends QueryError {
  constructor(running: number, limit: number) {
    super(`max-concurrent-queries limit exceeded(${running}, ${limit})`, 200, 'too_many_queries');
  }
}

/** 1.x ErrQueryInterrupted: the query was killed. */
export class QueryKilledError extends QueryError {
  constructor() {
    super('query interrupted', 200, 'query_killed');
  }
}

interface Entry {
  query: RunningQuery;
  readonly controller: Stoppable;
}

/** SHOW STATS' queryExecutor module (1.x's names): batches started, finished, and their summed run time. */
export interface QueryExecutorCounters {
  readonly queriesExecuted: number;
  readonly queriesFinished: number;
  readonly queryDurationNs: number;
}

export class QueryRegistry {
  readonly #entries = new Map<number, Entry>();
  #nextId = 1;
  readonly #counters = { queriesExecuted: 0, queriesFinished: 0, queryDurationNs: 0 };

  constructor(
    private readonly maxConcurrent = 0,
    readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Register a running batch; `controller` is aborted by kill(). Returns the query id. `text`
   * may be a function: it is then called only when the text is read (SHOW QUERIES), not for
   * every query run.
   */
  attach(text: string | (() => string), database: string, controller: Stoppable): number {
    if (this.maxConcurrent > 0 && this.#entries.size >= this.maxConcurrent) {
      throw new TooManyQueriesError(this.#entries.size, this.maxConcurrent);
    }
    const id = this.#nextId++;
    const query = new AttachedQuery(id, text, database, this.now());
    this.#entries.set(id, { query, controller });
    this.#counters.queriesExecuted++;
    return id;
  }

  detach(id: number): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#counters.queriesFinished++;
    this.#counters.queryDurationNs += Math.round((this.now() - entry.query.startedMs) * 1e6);
  }

  get counters(): QueryExecutorCounters {
    return { ...this.#counters };
  }

  /** Running queries in id order. */
  list(): RunningQuery[] {
    return [...this.#entries.values()].map((e) => plainQuery(e.query, e.query.status)).sort((a, b) => a.id - b.id);
  }

  /** Abort query `id`; false when no such query runs. */
  kill(id: number): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    entry.query = plainQuery(entry.query, 'killed');
    entry.controller.abort(new QueryKilledError());
    return true;
  }
}

/** A RunningQuery as a plain object (its text printed now) with `status`. */
function plainQuery(q: RunningQuery, status: RunningQuery['status']): RunningQuery {
  return { id: q.id, text: q.text, database: q.database, startedMs: q.startedMs, status };
}

/**
 * A RunningQuery whose text is printed when first read. A class with the getter on its
 * prototype, not an object literal with `get text()`: a literal's getter closure belongs to
 * the object's hidden class, so every attach made a new hidden class (old-generation memory)
 * holding that request's closures, and the scavenger kept each request's whole object graph
 * alive until a full GC. Measured on SHOW DATABASES over one connection: ~3 MB promoted per
 * scavenge and 6-15 ms scavenges before, ~0.3 MB and ~1 ms after.
 */
class AttachedQuery implements RunningQuery {
  readonly status = 'running';
  #text: string | (() => string);

  constructor(
    readonly id: number,
    text: string | (() => string),
    readonly database: string,
    readonly startedMs: number,
  ) {
    this.#text = text;
  }

  get text(): string {
    if (typeof this.#text !== 'string') this.#text = this.#text();
    return this.#text;
  }
}

/** SHOW QUERIES' duration: Go's Duration.String() truncated to s, ms or µs as 1.x does. */
export function showQueriesDuration(ms: number): bigint {
  const ns = BigInt(Math.max(0, Math.floor(ms * 1e6)));
  const unit = ns >= 1_000_000_000n ? 1_000_000_000n : ns >= 1_000_000n ? 1_000_000n : ns >= 1_000n ? 1_000n : 1n;
  return ns - (ns % unit);
}

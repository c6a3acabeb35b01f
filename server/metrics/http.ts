/**
 * Request accounting for /write and /query (the service_write_* and service_query_* series).
 * A route opens a meter when the request arrives and closes it with the status it sent
 * (undefined when the client went away first: counted, timed, not an error).
 */
import { PartialWriteError, StrataError } from '../../engine/index.js';
import { ClientAbortedError } from '../errors.js';
import type { PlainHistogram } from './plain-histogram.js';
import type { ServiceMetrics } from './registry.js';

/** The status sendError() answers for `err` (undefined: nothing is sent, the client is gone). */
export function errorStatus(err: unknown): number | undefined {
  if (err instanceof ClientAbortedError) return undefined;
  return err instanceof StrataError ? err.status : 500;
}

/** Points a failed write still stored: a partial write keeps the good lines. */
export function storedDespite(err: unknown): number {
  return err instanceof PartialWriteError ? err.stored : 0;
}

export interface RequestMeter {
  /** Close the meter once; later calls are ignored. */
  done(status: number | undefined): void;
}

/** Counts the request when opened; times it and counts an error status when done (plain fields: it runs per request). */
class Meter implements RequestMeter {
  #open = true;
  readonly #started = performance.now();

  constructor(
    requests: { inc(): void },
    private readonly errors: { inc(): void },
    private readonly duration: PlainHistogram,
  ) {
    requests.inc();
  }

  done(status: number | undefined): void {
    if (!this.#open) return;
    this.#open = false;
    this.duration.observeSince(this.#started);
    if (status !== undefined && this.isError(status)) this.errors.inc();
  }

  protected isError(status: number): boolean {
    return status >= 400;
  }
}

export function writeMeter(m: ServiceMetrics): RequestMeter {
  return new Meter(m.writeRequests, m.writeErrors, m.writeDuration);
}

/** A query also counts as an error when a statement failed inside its 200 answer (`statementFailed`). */
class QueryMeter extends Meter {
  #statementError = false;

  statementFailed(): void {
    this.#statementError = true;
  }

  protected override isError(status: number): boolean {
    return status >= 400 || this.#statementError;
  }
}

export function queryMeter(m: ServiceMetrics): RequestMeter & { statementFailed(): void } {
  return new QueryMeter(m.queryRequests, m.queryErrors, m.queryDuration);
}

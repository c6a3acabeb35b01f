/**
 * Request accounting for /write and /query: the service_write_* and service_query_* series, and
 * 1.x's httpd and write counters of SHOW STATS (module-counters.ts).
 * A route opens a meter when the request arrives and closes it with the status it sent
 * (undefined when the client went away first: counted, timed, not an error).
 */
import { PartialWriteError, StrataError } from '../../engine/index.js';
import { ClientAbortedError } from '../errors.js';
import type { HttpdCounters } from './module-counters.js';
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

/** A write the engine stored whole: SHOW STATS' httpd and write counters. */
export function pointsWritten(m: ServiceMetrics, points: number): void {
  m.httpd.pointsWrittenOK += points;
  m.pointsWriter.req++;
  m.pointsWriter.pointReq += points;
  m.pointsWriter.writeOk++;
}

/** A write body that reached the engine and was refused whole or in part (as 1.x's handler counts it). */
export function pointsRefused(m: ServiceMetrics, err: unknown): void {
  m.pointsWriter.req++;
  if (err instanceof PartialWriteError) {
    m.httpd.pointsWrittenOK += err.stored;
    m.httpd.pointsWrittenDropped += err.dropped;
    m.pointsWriter.pointReq += err.stored + err.dropped;
    m.pointsWriter.writeDrop++;
  } else {
    m.pointsWriter.writeError++;
  }
}

export interface RequestMeter {
  /** Close the meter once; later calls are ignored. */
  done(status: number | undefined): void;
}

/** Counts the request when opened; times it and counts an error status when done (plain fields: it runs per request). */
abstract class Meter implements RequestMeter {
  #open = true;
  readonly #started = performance.now();

  constructor(
    requests: { inc(): void },
    private readonly errors: { inc(): void },
    private readonly duration: PlainHistogram,
    protected readonly httpd: HttpdCounters,
  ) {
    requests.inc();
  }

  done(status: number | undefined): void {
    if (!this.#open) return;
    this.#open = false;
    const ms = performance.now() - this.#started;
    this.duration.observe(ms / 1000);
    this.closed(Math.round(ms * 1e6));
    if (status !== undefined && this.isError(status)) this.errors.inc();
  }

  /** The request's own SHOW STATS httpd counters (module-counters.ts). */
  protected abstract closed(ns: number): void;

  protected isError(status: number): boolean {
    return status >= 400;
  }
}

class WriteMeter extends Meter {
  constructor(m: ServiceMetrics) {
    super(m.writeRequests, m.writeErrors, m.writeDuration, m.httpd);
    m.httpd.writeReq++;
    m.httpd.writeReqActive++;
  }

  protected closed(ns: number): void {
    this.httpd.writeReqActive--;
    this.httpd.writeReqDurationNs += ns;
  }
}

export function writeMeter(m: ServiceMetrics): RequestMeter {
  return new WriteMeter(m);
}

/** A query also counts as an error when a statement failed inside its 200 answer (`statementFailed`). */
class QueryMeter extends Meter {
  #statementError = false;

  constructor(m: ServiceMetrics) {
    super(m.queryRequests, m.queryErrors, m.queryDuration, m.httpd);
    m.httpd.queryReq++;
  }

  protected closed(ns: number): void {
    this.httpd.queryReqDurationNs += ns;
  }

  statementFailed(): void {
    this.#statementError = true;
  }

  protected override isError(status: number): boolean {
    return status >= 400 || this.#statementError;
  }
}

export function queryMeter(m: ServiceMetrics): RequestMeter & { statementFailed(): void } {
  return new QueryMeter(m);
}

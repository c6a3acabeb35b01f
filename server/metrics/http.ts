/**
 * Request accounting for /write and /query (the service_write_* and service_query_* series).
 * A route opens a meter when the request arrives and closes it with the status it sent
 * (undefined when the client went away first: counted, timed, not an error).
 */
import { PartialWriteError, StrataError } from '../../engine/index.js';
import { ClientAbortedError } from '../errors.js';
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

function meter(requests: { inc(): void }, errors: { inc(): void }, duration: { startTimer(): () => number }, isError: (status: number) => boolean): RequestMeter {
  requests.inc();
  const stop = duration.startTimer();
  let open = true;
  return {
    done(status) {
      if (!open) return;
      open = false;
      stop();
      if (status !== undefined && isError(status)) errors.inc();
    },
  };
}

export function writeMeter(m: ServiceMetrics): RequestMeter {
  return meter(m.writeRequests, m.writeErrors, m.writeDuration, (status) => status >= 400);
}

/** A query also counts as an error when a statement failed inside its 200 answer (`statementFailed`). */
export function queryMeter(m: ServiceMetrics): RequestMeter & { statementFailed(): void } {
  let statementError = false;
  const inner = meter(m.queryRequests, m.queryErrors, m.queryDuration, (status) => status >= 400 || statementError);
  return {
    done: (status) => inner.done(status),
    statementFailed() {
      statementError = true;
    },
  };
}

/**
 * 1.x partial-write errors. Good lines are stored before one of these is thrown; the
 * message is the text 1.x clients (Telegraf, the influx CLI) look for.
 */
import { StrataError, CardinalityLimitError } from '../errors.js';

export interface Rejection {
  readonly reason: string;
  readonly cardinality: boolean;
}

export class PartialWriteError extends StrataError {
  constructor(
    message: string,
    status: number,
    readonly dropped: number,
    /** Points of the same batch that were stored. */
    readonly stored: number,
  ) {
    super('partial_write', status, message);
  }
}

/**
 * Build the error for a batch with parse failures (`unable to parse '<line>': <reason>`) and
 * points rejected after parsing (type conflicts, cardinality). Status 422 only when every
 * rejection is a cardinality limit (spec), otherwise 400.
 */
export function partialWriteError(parseFailures: readonly string[], rejected: readonly Rejection[], stored: number): PartialWriteError {
  const dropped = parseFailures.length + rejected.length;
  const onlyCardinality = parseFailures.length === 0 && rejected.length > 0 && rejected.every((r) => r.cardinality);
  const status = onlyCardinality ? 422 : 400;
  const reasons = [...parseFailures, ...uniq(rejected.map((r) => r.reason))].join('\n');
  if (stored === 0 && rejected.length === 0) return new PartialWriteError(reasons, status, dropped, stored);
  return new PartialWriteError(`partial write: ${reasons} dropped=${dropped}`, status, dropped, stored);
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}

export function isCardinality(err: Error): boolean {
  return err instanceof CardinalityLimitError;
}

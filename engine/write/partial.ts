/**
 * 1.x partial-write errors. Good lines are stored before one of these is thrown; the
 * message is the text 1.x clients (Telegraf, the influx CLI) look for.
 */
import { StrataError, CardinalityLimitError } from '../errors.js';

export interface Rejection {
  readonly reason: string;
  readonly cardinality: boolean;
  /**
   * Which of 1.x's checks refused the point; it decides which reason the answer names.
   * Omitted: a field type conflict or a point another rule refused after indexing.
   * `shard-failed`: the write of the point's shard failed whole (write/shard-write.ts).
   */
  readonly stage?: 'time-tag' | 'retention' | 'shard-failed';
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
 * points rejected after parsing (type conflicts, refused `time` keys, cardinality, retention).
 *
 * As 1.x: rejected points make the answer and the parse failures are not reported (its
 * handler returns the shard's error before looking at them); the answer names one reason,
 * in the order 1.x's shard meets them (cardinality while creating series, then a `time`
 * tag, then the points' fields; retention only when nothing else was refused), and counts
 * the rejected points. Among the field checks 1.x names the first line; here lines refused
 * for fields named `time` come before field type conflicts (the batch no longer tells their
 * lines apart), a difference only when one batch has both. Status 422 only when every rejection is a cardinality limit
 * (spec), otherwise 400. `dropped` counts every point the batch lost, for the metrics.
 */
export function partialWriteError(parseFailures: readonly string[], rejected: readonly Rejection[], stored: number): PartialWriteError {
  const dropped = parseFailures.length + rejected.length;
  // A failed shard write is an error of its own in 1.x, not a partial write, and it wins over
  // the other shards' answers (1.6.7 returns whichever shard answers first).
  if (rejected.some((r) => r.stage === 'shard-failed')) return new PartialWriteError('field type conflict', 400, dropped, stored);
  if (rejected.length === 0) {
    const reasons = parseFailures.join('\n');
    if (stored === 0) return new PartialWriteError(reasons, 400, dropped, stored);
    return new PartialWriteError(`partial write: ${reasons} dropped=${dropped}`, 400, dropped, stored);
  }
  const named =
    rejected.find((r) => r.cardinality) ?? rejected.find((r) => r.stage === 'time-tag') ?? rejected.find((r) => r.stage !== 'retention') ?? rejected[0]!;
  const counted = named.stage === 'retention' ? rejected.length : rejected.filter((r) => r.stage !== 'retention').length;
  const status = rejected.every((r) => r.cardinality) ? 422 : 400;
  return new PartialWriteError(`partial write: ${named.reason} dropped=${counted}`, status, dropped, stored);
}

export function isCardinality(err: Error): boolean {
  return err instanceof CardinalityLimitError;
}

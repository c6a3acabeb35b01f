/**
 * The engine's write guard (materialized views refuse direct writes to their targets): the
 * points of measurements it refuses become rejections with its reason, asked once per
 * measurement of a batch.
 */
import type { Point } from '../point.js';
import type { Rejection } from './partial.js';

export type WriteGuard = (db: string, rp: string, measurement: string) => string | undefined;

export interface Guarded {
  readonly points: readonly Point[];
  readonly rejected: Rejection[];
}

export function applyWriteGuard(guard: WriteGuard | undefined, db: string, rp: string, input: Guarded): Guarded {
  if (!guard) return input;
  const verdict = new Map<string, string | undefined>();
  const kept: Point[] = [];
  const rejected: Rejection[] = [];
  for (const p of input.points) {
    let reason = verdict.get(p.measurement);
    if (!verdict.has(p.measurement)) verdict.set(p.measurement, (reason = guard(db, rp, p.measurement)));
    if (reason) rejected.push({ reason, cardinality: false });
    else kept.push(p);
  }
  return { points: kept, rejected: [...input.rejected, ...rejected] };
}

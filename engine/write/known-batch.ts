/**
 * Whether a parsed batch can skip the per-point admission of Engine.write: every series is
 * already in the index, every field already has the batch's type in its measurement and
 * already belongs to the retention policy's field set, no write guard refuses a measurement,
 * and no point is beyond retention. Then `check` would pass and `register` /
 * `registerRpFields` would change nothing for every point, so the batch goes straight to the
 * WAL and the cache. Anything else (a new series or field, a type conflict, a refusal) takes
 * the point-by-point path, which produces the errors and partial writes.
 */
import type { Database } from '../database.js';
import type { ColumnBatch } from '../lineprotocol/columns.js';

export interface KnownBatchRules {
  readonly rp: string;
  /** Points with `sec` below this are refused (retention); -Infinity when not enforced. */
  readonly minSec: number;
  readonly guard: ((measurement: string) => string | undefined) | undefined;
}

export function isKnownBatch(db: Database, b: ColumnBatch, rules: KnownBatchRules): boolean {
  if (b.errors.length > 0 || b.minSec < rules.minSec) return false;
  for (const s of b.series) if (db.index.seriesId(s.key) === undefined) return false;
  const k = b.kinds;
  for (let i = 0; i < k.length; i += 3) {
    const measurement = b.series[k[i]!]!.measurement;
    const field = b.fieldNames[k[i + 1]!]!;
    if (db.index.measurement(measurement)?.fields.get(field) !== k[i + 2]) return false;
    if (!db.fieldsInRp(rules.rp, measurement)?.has(field)) return false;
  }
  if (rules.guard) {
    const seen = new Set<string>();
    for (const s of b.series) {
      if (seen.has(s.measurement)) continue;
      seen.add(s.measurement);
      if (rules.guard(s.measurement)) return false;
    }
  }
  return true;
}

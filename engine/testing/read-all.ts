/**
 * Test support: read one series-field fully through the public cursor API, as
 * [absolute ns time, value] pairs. Used by engine tests and crash-test checkers.
 */
import type { Engine } from '../engine.js';
import { MAX_TIME_NS, MIN_TIME_NS } from '../time.js';

export async function readSeries(
  engine: Engine,
  q: { db: string; rp?: string; measurement: string; seriesKey: string; field: string; ascending?: boolean; startNs?: bigint; endNs?: bigint },
): Promise<[bigint, unknown][]> {
  const rp = q.rp ?? engine.catalog.resolveRetentionPolicy(q.db, undefined).name;
  const cursor = engine.cursor({
    db: q.db,
    rp,
    measurement: q.measurement,
    seriesKey: q.seriesKey,
    field: q.field,
    startNs: q.startNs ?? MIN_TIME_NS,
    endNs: q.endNs ?? MAX_TIME_NS,
    ascending: q.ascending ?? true,
  });
  const out: [bigint, unknown][] = [];
  try {
    for (let b = await cursor.next(); b; b = await cursor.next()) {
      const vals = b.column.values;
      for (let i = 0; i < b.offsets.length; i++) out.push([b.base + BigInt(b.offsets[i]!), vals[i]]);
    }
  } finally {
    cursor.close();
  }
  return out;
}

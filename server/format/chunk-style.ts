/**
 * How 1.6.7 lays a statement's result out in a chunked response. SELECT and the statements 1.x
 * runs as SELECTs underneath (SHOW SERIES, SHOW FIELD KEYS, per-measurement cardinalities)
 * split each series every `chunk_size` rows with `partial` flags; SHOW TAG KEYS and SHOW TAG
 * VALUES send one line per series without flags; every other statement sends its whole result
 * on one line.
 */
import { isCardinalityEstimate } from '../../ql/index.js';
import type { Statement } from '../../ql/index.js';

export type ChunkStyle = 'rows' | 'series' | 'whole';

export function chunkStyleOf(stmt: Statement | undefined): ChunkStyle {
  switch (stmt?.kind) {
    case undefined:
    case 'Select':
    case 'ShowSeries':
    case 'ShowFieldKeys':
      return 'rows';
    case 'ShowTagKeys':
    case 'ShowTagValues':
      return 'series';
    case 'ShowCardinality':
      // The estimates and the measurement count are one unnamed series; the rest (also SERIES
      // CARDINALITY with FROM or WHERE, a rewritten SELECT in 1.6.7) is per measurement.
      return stmt.of === 'measurement' || isCardinalityEstimate(stmt) ? 'whole' : 'rows';
    default:
      return 'whole';
  }
}

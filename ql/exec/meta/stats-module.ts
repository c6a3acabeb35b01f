/**
 * One SHOW STATS module as 1.x's monitor reports it (its `models.Statistic`): a name, tags and
 * counters. The layers above the executor (the HTTP server's httpd and write modules) hand theirs
 * in through QueryContext.statsModules; the executor adds its own and the storage engine's.
 */
import type { ResultSeries } from '../../result.js';
import { byteOrder, series } from './common.js';

export interface StatsModule {
  readonly name: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, number | bigint | boolean>>;
}

/** The module as one SHOW STATS series: 1.x sorts the columns by name (Go map keys). */
export function moduleSeries(m: StatsModule): ResultSeries {
  const columns = Object.keys(m.values).sort(byteOrder);
  return series(m.name, columns, [columns.map((c) => m.values[c]!)], m.tags);
}

/**
 * SHOW STATS [FOR 'module']: a small but real answer in the 1.x shape (one series per module,
 * `database` series tagged per database). Modules: runtime (Node heap and process numbers),
 * engine (WAL sequence, read-only flag, databases), database (numMeasurements, numSeries).
 */
import type { ShowStatsStatement } from '../../ast/statements.js';
import type { ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, series } from './common.js';

export function forModule(list: ResultSeries[], module: string): StatementOutput {
  const want = module.toLowerCase();
  return output(want ? list.filter((s) => s.name?.toLowerCase() === want) : list);
}

export function showStats(stmt: ShowStatsStatement, ctx: QueryContext): StatementOutput {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  const list: ResultSeries[] = [
    series('runtime', ['HeapAlloc', 'HeapSys', 'RSS', 'External', 'ArrayBuffers', 'UserCPUMicros', 'SystemCPUMicros'], [
      [mem.heapUsed, mem.heapTotal, mem.rss, mem.external, mem.arrayBuffers, cpu.user, cpu.system],
    ]),
    series('engine', ['walLastSeq', 'readOnly', 'databases'], [
      [ctx.engine.lastWalSeq, ctx.engine.state.readOnly, ctx.engine.catalog.databases().length],
    ]),
  ];
  for (const db of ctx.engine.catalog.databases()) {
    const index = ctx.engine.openedDatabase(db.name)?.index;
    const row = [index ? index.measurementNames().length : 0, index ? index.seriesCount : 0];
    list.push(series('database', ['numMeasurements', 'numSeries'], [row], { database: db.name }));
  }
  return forModule(list, stmt.module);
}

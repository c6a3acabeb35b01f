/**
 * SHOW STATS [FOR 'module'] and SHOW DIAGNOSTICS [FOR 'module']: a small but real answer in the
 * 1.x shape (one series per module, `database` series tagged per database).
 * Stats modules: runtime (Node heap and process numbers), engine (WAL sequence, read-only flag),
 * database (numMeasurements, numSeries per database). Diagnostics modules: build, runtime,
 * network, system.
 */
import { hostname } from 'node:os';
import { formatGoDuration, formatRfc3339 } from '../../../engine/index.js';
import type { ShowDiagnosticsStatement, ShowStatsStatement } from '../../ast/statements.js';
import type { ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, series } from './common.js';

const STARTED_MS = Date.now() - Math.round(process.uptime() * 1000);

function forModule(list: ResultSeries[], module: string): StatementOutput {
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

function now(): string {
  const ms = Date.now();
  return formatRfc3339(Math.floor(ms / 1000), (ms % 1000) * 1_000_000);
}

export function showDiagnostics(stmt: ShowDiagnosticsStatement, _ctx: QueryContext): StatementOutput {
  const list: ResultSeries[] = [
    series('build', ['Product'], [['strata']]),
    series('runtime', ['arch', 'platform', 'version', 'pid'], [[process.arch, process.platform, process.version, process.pid]]),
    series('network', ['hostname'], [[hostname()]]),
    series('system', ['PID', 'currentTime', 'started', 'uptime'], [
      [process.pid, now(), formatRfc3339(Math.floor(STARTED_MS / 1000), (STARTED_MS % 1000) * 1_000_000), formatGoDuration(Math.floor(process.uptime()))],
    ]),
  ];
  return forModule(list, stmt.module);
}

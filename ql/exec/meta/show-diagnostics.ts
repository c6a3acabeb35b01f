/**
 * SHOW DIAGNOSTICS [FOR 'module']: 1.x-shaped modules build, runtime, network and system
 * (PID, currentTime, started, uptime as a Go duration). The build module keeps 1.x's columns
 * (tools read `Version` from it) plus Product; a build carries no branch or commit, which 1.x's
 * packaged builds also print as `unknown`.
 */
import { hostname } from 'node:os';
import { formatGoDuration, formatRfc3339 } from '../../../engine/index.js';
import type { ShowDiagnosticsStatement } from '../../ast/statements.js';
import type { ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { series } from './common.js';
import { forModule } from './show-stats.js';

const STARTED_MS = Date.now() - Math.round(process.uptime() * 1000);

function now(): string {
  const ms = Date.now();
  return formatRfc3339(Math.floor(ms / 1000), (ms % 1000) * 1_000_000);
}

export function showDiagnostics(stmt: ShowDiagnosticsStatement, ctx: QueryContext): StatementOutput {
  const list: ResultSeries[] = [
    series('build', ['Branch', 'Build Time', 'Commit', 'Product', 'Version'], [['unknown', '', 'unknown', 'strata', ctx.version ?? 'unknown']]),
    series('runtime', ['arch', 'platform', 'version', 'pid'], [[process.arch, process.platform, process.version, process.pid]]),
    series('network', ['hostname'], [[hostname()]]),
    series('system', ['PID', 'currentTime', 'started', 'uptime'], [
      [process.pid, now(), formatRfc3339(Math.floor(STARTED_MS / 1000), (STARTED_MS % 1000) * 1_000_000), formatGoDuration(Math.floor(process.uptime()))],
    ]),
  ];
  return forModule(list, stmt.module);
}

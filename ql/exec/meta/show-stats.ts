/**
 * SHOW STATS [FOR 'module']: 1.x's modules under 1.x's names, so Telegraf's `inputs.influxdb`
 * (which reads the same numbers from /debug/vars) and the dashboards built on 1.x's `_internal`
 * fields find them: runtime (Go's MemStats names where Node measures the same thing, plus Node's
 * own), queryExecutor, database, per shard `shard`/`tsm1_cache`/`tsm1_filestore` (tagged as 1.x
 * tags them), the server's httpd and write (QueryContext.statsModules), and Strata's `engine`.
 * A counter Strata does not keep is left out rather than reported as a made-up zero.
 */
import type { ShowStatsStatement } from '../../ast/statements.js';
import type { ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output } from './common.js';
import { shardId } from './show-shards.js';
import { moduleSeries, type StatsModule } from './stats-module.js';

export function forModule(list: ResultSeries[], module: string): StatementOutput {
  const want = module.toLowerCase();
  return output(want ? list.filter((s) => s.name?.toLowerCase() === want) : list);
}

function runtimeModule(): StatsModule {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    name: 'runtime',
    values: {
      Alloc: mem.heapUsed,
      HeapAlloc: mem.heapUsed,
      HeapInUse: mem.heapUsed,
      HeapIdle: mem.heapTotal - mem.heapUsed,
      HeapSys: mem.heapTotal,
      Sys: mem.rss,
      RSS: mem.rss,
      External: mem.external,
      ArrayBuffers: mem.arrayBuffers,
      UserCPUMicros: cpu.user,
      SystemCPUMicros: cpu.system,
    },
  };
}

function queryExecutorModule(ctx: QueryContext): StatsModule | undefined {
  if (!ctx.queries) return undefined;
  return { name: 'queryExecutor', values: { queriesActive: ctx.queries.size, ...ctx.queries.counters } };
}

/** Per database its series counts, then per shard 1.x's storage modules. */
function storageModules(ctx: QueryContext): StatsModule[] {
  const list: StatsModule[] = [];
  const shards: StatsModule[] = [];
  for (const db of ctx.engine.catalog.databases()) {
    const opened = ctx.engine.openedDatabase(db.name);
    const index = opened?.index;
    list.push({ name: 'database', tags: { database: db.name }, values: { numMeasurements: index ? index.measurementNames().length : 0, numSeries: index ? index.seriesCount : 0 } });
    for (const [rp, set] of opened?.shardSets ?? []) {
      for (const shard of set.shards) {
        const tags = {
          database: db.name,
          engine: 'tsm1',
          id: String(shardId(db.name, rp, shard.startSec)),
          path: shard.dir,
          retentionPolicy: rp,
          walPath: ctx.engine.options.walDir,
        };
        let diskBytes = 0;
        const files = shard.files?.files() ?? [];
        for (const f of files) diskBytes += f.stats().bytes;
        shards.push(
          { name: 'shard', tags, values: { diskBytes } },
          { name: 'tsm1_cache', tags, values: { memBytes: shard.cacheBytes, snapshotCount: shard.snapshots.length } },
          { name: 'tsm1_filestore', tags, values: { diskBytes, numFiles: files.length } },
        );
      }
    }
  }
  return [...list, ...shards];
}

export function showStats(stmt: ShowStatsStatement, ctx: QueryContext): StatementOutput {
  const modules: StatsModule[] = [runtimeModule()];
  const executor = queryExecutorModule(ctx);
  if (executor) modules.push(executor);
  modules.push(...storageModules(ctx), ...(ctx.statsModules?.() ?? []));
  modules.push({ name: 'engine', values: { walLastSeq: ctx.engine.lastWalSeq, readOnly: ctx.engine.state.readOnly, databases: ctx.engine.catalog.databases().length } });
  return forModule(modules.map(moduleSeries), stmt.module);
}

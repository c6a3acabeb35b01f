/**
 * The server's SHOW STATS modules under 1.6.7's names: `httpd` (its HTTP handler's counters,
 * tagged with the bind address) and `write` (its points writer's). Telegraf's `inputs.influxdb`
 * turns them into influxdb_httpd / influxdb_write fields, which 1.x monitoring dashboards plot as
 * rates. Plain number fields: they change on every request, so no prom-client objects here
 * (the service_* series in registry.ts count the same requests for Prometheus).
 *
 * Counters 1.x keeps for features Strata does not have (prometheus remote read/write,
 * subscriptions, write timeouts) are left out rather than reported as zeros, and so is
 * pointsWrittenFail: a body refused whole is not parsed into points, so there is no count.
 */
import type { StatsModule } from '../../ql/index.js';

export class HttpdCounters {
  req = 0;
  reqActive = 0;
  reqDurationNs = 0;
  pingReq = 0;
  statusReq = 0;
  queryReq = 0;
  queryReqDurationNs = 0;
  writeReq = 0;
  writeReqActive = 0;
  writeReqBytes = 0;
  writeReqDurationNs = 0;
  pointsWrittenOK = 0;
  pointsWrittenDropped = 0;
  clientError = 0;
  serverError = 0;
  authFail = 0;

  /** Every answered request, by the status sent (undefined: the client went away first). */
  finished(status: number | undefined, startedMs: number): void {
    this.reqActive--;
    this.reqDurationNs += Math.round((performance.now() - startedMs) * 1e6);
    if (status === undefined || status < 400) return;
    if (status === 401) this.authFail++;
    if (status < 500) this.clientError++;
    else this.serverError++;
  }
}

/** 1.x's PointsWriter counters: batches handed to storage and their points. */
export class PointsWriterCounters {
  req = 0;
  pointReq = 0;
  writeOk = 0;
  writeDrop = 0;
  writeError = 0;
}

export function serverStatsModules(httpd: HttpdCounters, writer: PointsWriterCounters, bind: string): StatsModule[] {
  const w = writer;
  return [
    { name: 'httpd', tags: { bind }, values: { ...httpd } },
    // Every point goes to a local shard on a single node, so pointReqLocal is pointReq.
    { name: 'write', values: { req: w.req, pointReq: w.pointReq, pointReqLocal: w.pointReq, writeOk: w.writeOk, writeDrop: w.writeDrop, writeError: w.writeError } },
  ];
}

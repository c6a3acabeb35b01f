/**
 * The continuous query scheduler (spec "Continuous query execution"): every 10 s it runs each
 * definition of the catalog whose RESAMPLE EVERY elapsed since its last run, over the
 * boundary-aligned window 1.x computes (cq-window.ts), through the normal query path
 * (`executeStatements` with the stored SELECT ... INTO restricted to that window). RESAMPLE FOR
 * longer than the interval recomputes the earlier windows on every run, so late points land.
 *
 * Definitions are read from the catalog at every tick (they survive restarts and DROP takes
 * effect at once). Last-run times are kept in memory, as in 1.x: after a restart each query
 * runs at the first tick. In a cluster only the leader runs queries (`isLeader`).
 */
import type { ContinuousQueryInfo, Engine, EngineLogger } from '../../../engine/index.js';
import { silentLogger } from '../../../engine/index.js';
import { executeStatements } from '../executor.js';
import type { QueryContext } from '../context.js';
import { NoIntervalError, type ServiceRun } from './errors.js';
import { planCqRun } from './cq-window.js';
import { parseWindowedSelect, withTimeRange, type WindowedSelect } from './select-window.js';

export const CQ_TICK_MS = 10_000;
const NS_PER_SEC = 1_000_000_000n;

export interface CqSchedulerOptions {
  /** Tick period (spec: 10 s). */
  readonly tickMs?: number;
  /** Wall clock, ns since the epoch (injected by tests). */
  readonly now?: () => bigint;
  readonly logger?: EngineLogger;
  /** Cluster mode: only the Raft leader runs continuous queries. Default: always. */
  readonly isLeader?: () => boolean;
  /** Called after each execution (metrics, query log, tests). */
  readonly onRun?: (run: CqRun) => void;
}

export type CqRun = ServiceRun;

export interface CqCounters {
  ticks: number;
  /** Executions of a definition over a window. */
  runs: number;
  pointsWritten: number;
  errors: number;
}

const key = (db: string, name: string) => `${db}\u0000${name}`;

export class ContinuousQueryScheduler {
  readonly counters: CqCounters = { ticks: 0, runs: 0, pointsWritten: 0, errors: 0 };
  private readonly lastRuns = new Map<string, bigint>();
  private readonly parsed = new Map<string, WindowedSelect>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly now: () => bigint;
  private readonly logger: EngineLogger;

  constructor(
    private readonly engine: Engine,
    private readonly options: CqSchedulerOptions = {},
  ) {
    this.now = options.now ?? (() => BigInt(Date.now()) * 1_000_000n);
    this.logger = options.logger ?? silentLogger;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.tickMs ?? CQ_TICK_MS);
    this.timer.unref();
  }

  /** Stop the timer and wait for a running tick. Call before `Engine.close()`. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One scheduler tick. Never rejects; a call during a tick joins it. */
  tick(): Promise<void> {
    this.running ??= this.runDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runDue(): Promise<void> {
    this.counters.ticks++;
    if (this.options.isLeader && !this.options.isLeader()) return;
    const nowNs = this.now();
    const live = new Set<string>();
    for (const cq of this.engine.catalog.continuousQueries()) {
      if (this.engine.state.stopping) return;
      live.add(key(cq.database, cq.name));
      await this.maybeRun(cq, nowNs);
    }
    for (const k of this.lastRuns.keys()) if (!live.has(k)) this.lastRuns.delete(k);
    for (const k of this.parsed.keys()) if (!live.has(k)) this.parsed.delete(k);
  }

  private definition(cq: ContinuousQueryInfo): WindowedSelect {
    const k = key(cq.database, cq.name);
    let w = this.parsed.get(k);
    if (!w || w.text !== cq.queryText) {
      w = parseWindowedSelect(cq.queryText);
      this.parsed.set(k, w);
    }
    return w;
  }

  private async maybeRun(cq: ContinuousQueryInfo, nowNs: bigint): Promise<void> {
    const k = key(cq.database, cq.name);
    let w: WindowedSelect;
    try {
      w = this.definition(cq);
    } catch (err) {
      if (err instanceof NoIntervalError) return; // accepted at CREATE like 1.x, never scheduled
      this.fail(cq, 0n, 0n, err);
      return;
    }
    const timing = {
      intervalNs: w.intervalNs,
      offsetNs: w.offsetNs,
      everyNs: BigInt(cq.resampleEverySec) * NS_PER_SEC,
      forNs: BigInt(cq.resampleForSec) * NS_PER_SEC,
    };
    const plan = planCqRun(timing, nowNs, this.lastRuns.get(k));
    if (!plan.run) return;
    // As 1.x: the run counts even when it fails or its window is empty.
    this.lastRuns.set(k, plan.lastRunNs);
    if (!plan.window) return;
    await this.execute(cq, w, plan.window.startNs, plan.window.endNs, nowNs);
  }

  /** Run `cq` over [startNs, endNs) through the normal query path. */
  private async execute(cq: ContinuousQueryInfo, w: WindowedSelect, startNs: bigint, endNs: bigint, nowNs: bigint): Promise<void> {
    const ctx: QueryContext = { engine: this.engine, database: cq.database, retentionPolicy: '', nowNs };
    try {
      const [result] = await executeStatements([withTimeRange(w, startNs, endNs)], ctx);
      if (result?.error !== undefined) {
        this.fail(cq, startNs, endNs, result.error);
        return;
      }
      const cell = result?.series?.[0]?.values[0]?.[1];
      const written = typeof cell === 'number' ? cell : 0;
      this.counters.runs++;
      this.counters.pointsWritten += written;
      this.logger.debug({ db: cq.database, cq: cq.name, startNs: String(startNs), endNs: String(endNs), written }, 'continuous query ran');
      this.options.onRun?.({ database: cq.database, name: cq.name, startNs, endNs, written });
    } catch (err) {
      this.fail(cq, startNs, endNs, err);
    }
  }

  private fail(cq: ContinuousQueryInfo, startNs: bigint, endNs: bigint, err: unknown): void {
    const error = err instanceof Error ? err.message : String(err);
    this.counters.errors++;
    this.logger.error({ db: cq.database, cq: cq.name, error }, 'continuous query failed');
    this.options.onRun?.({ database: cq.database, name: cq.name, startNs, endNs, written: 0, error });
  }
}

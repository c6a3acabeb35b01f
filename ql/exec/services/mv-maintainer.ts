/**
 * Materialized view maintenance: every view of the catalog
 * (`CREATE MATERIALIZED VIEW v ON db AS SELECT <aggregates> INTO target FROM m GROUP BY time(i), ...`)
 * is kept current incrementally.
 *
 * - The engine tells us, after each applied write, the (db, rp, measurement, min/max time) it
 *   wrote (`Engine.writeListeners`, subscribed in `start()`; or call `noteWrite` directly).
 *   Each view reading that measurement marks the GROUP BY windows covering the range dirty.
 * - Every tick (1 s by default) the dirty windows of each view are taken and recomputed through
 *   the normal query path: the stored SELECT ... INTO restricted to those windows (whole
 *   windows, at most `maxWindowsPerQuery` per statement). A write noted while a recompute runs
 *   is in the next tick's set, so no write is missed; windows are recomputed at least once
 *   after the last write that touched them.
 * - `backfill(db, name)` recomputes every window the sources' shards cover (WITH BACKFILL).
 * - On a failure the windows go back to the dirty set and the view is retried after
 *   `retryAfterMs`.
 *
 * Dirty windows live in memory. At start-up the windows of the last `startupLookbackNs` are
 * recomputed, which covers writes the previous process noted but had not recomputed yet
 * (graceful stop drains everything). Definitions come from the catalog, so views survive
 * restarts; a dropped view is forgotten at the next tick.
 */
import { CoalescingRun } from '../../../engine/index.js';
import type { Engine, EngineLogger } from '../../../engine/index.js';
import { silentLogger } from '../../../engine/index.js';
import type { QueryContext } from '../context.js';
import { executeStatements, type MetaExecutor } from '../executor.js';
import { chunks, DirtyRanges } from './dirty-ranges.js';
import { ServiceError, type ServiceRun } from './errors.js';
import { parsedViews, viewKey, viewReads, viewReadsDatabase, type ParsedView } from './mv-views.js';
import { windowStart, withTimeRange } from './select-window.js';

export interface MvMaintainerOptions {
  readonly tickMs?: number;
  /** Wall clock, ns since the epoch (injected by tests). */
  readonly now?: () => bigint;
  readonly logger?: EngineLogger;
  /** Cluster mode: only the leader maintains views. Default: always. */
  readonly isLeader?: () => boolean;
  readonly maxWindowsPerQuery?: number;
  readonly startupLookbackNs?: bigint;
  readonly retryAfterMs?: number;
  readonly onRun?: (run: MvRun) => void;
}

export type MvRun = ServiceRun;

export interface MvCounters {
  ticks: number;
  /** Statements run (one per chunk of dirty windows). */
  recomputes: number;
  pointsWritten: number;
  backfills: number;
  errors: number;
}

const MS = 1_000_000n;

export class MaterializedViewMaintainer {
  readonly counters: MvCounters = { ticks: 0, recomputes: 0, pointsWritten: 0, backfills: 0, errors: 0 };
  private readonly dirty = new Map<string, DirtyRanges>();
  private readonly failedUntil = new Map<string, bigint>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly runner = new CoalescingRun(() => this.pass());
  private readonly now: () => bigint;
  private readonly logger: EngineLogger;

  constructor(
    private readonly engine: Engine,
    private readonly options: MvMaintainerOptions = {},
  ) {
    this.now = options.now ?? (() => BigInt(Date.now()) * MS);
    this.logger = options.logger ?? silentLogger;
  }

  /** Subscribe to writes, queue the start-up catch-up, start ticking. */
  start(): void {
    if (this.timer) return;
    this.unsubscribe = this.engine.writeListeners.add(
      (ranges) => {
        for (const r of ranges) this.noteWrite(r.db, r.rp, r.measurement, r.minNs, r.maxNs);
      },
      // Most servers have no view: their writes skip the range computation altogether.
      (db) => parsedViews(this.engine.catalog).some((v) => viewReadsDatabase(v, db)),
    );
    const now = this.now();
    const lookback = this.options.startupLookbackNs ?? 3_600_000_000_000n;
    for (const v of parsedViews(this.engine.catalog)) this.markDirty(v, now - lookback, now);
    this.timer = setInterval(() => void this.runOnce(), this.options.tickMs ?? 1000);
    this.timer.unref();
  }

  /** Stop ticking and listening, then recompute what is still dirty. Call before `Engine.close()`. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.runOnce();
  }

  /** The write hook: points of [minNs, maxNs] (inclusive) were written to db.rp.measurement. */
  noteWrite(db: string, rp: string, measurement: string, minNs: bigint, maxNs: bigint): void {
    for (const v of parsedViews(this.engine.catalog)) if (viewReads(v, db, rp, measurement)) this.markDirty(v, minNs, maxNs);
  }

  /** Windows of `name` currently waiting for a recompute (tests, diagnostics). */
  dirtyRanges(db: string, name: string): readonly { start: bigint; end: bigint }[] {
    return this.dirty.get(viewKey(db, name))?.list() ?? [];
  }

  private markDirty(v: ParsedView, minNs: bigint, maxNs: bigint): void {
    let d = this.dirty.get(v.key);
    if (!d) this.dirty.set(v.key, (d = new DirtyRanges()));
    d.add(windowStart(v.w, minNs), windowStart(v.w, maxNs) + v.w.intervalNs);
  }

  /** Recompute every window the view's source shards cover, then resolve. */
  async backfill(db: string, name: string): Promise<void> {
    const v = parsedViews(this.engine.catalog).find((x) => x.key === viewKey(db, name));
    if (!v) throw new ServiceError(`materialized view not found: ${name}`);
    let min: number | undefined;
    let max: number | undefined;
    for (const src of v.sources) {
      for (const [rp, set] of this.engine.openedDatabase(src.db)?.shardSets ?? []) {
        if (src.rp !== '' && src.rp !== rp) continue;
        for (const s of set.shards) {
          min = min === undefined || s.startSec < min ? s.startSec : min;
          max = max === undefined || s.endSec > max ? s.endSec : max;
        }
      }
    }
    this.counters.backfills++;
    if (min === undefined || max === undefined) return;
    this.markDirty(v, BigInt(min) * 1_000_000_000n, BigInt(max) * 1_000_000_000n - 1n);
    this.failedUntil.delete(v.key);
    await this.runOnce();
  }

  /**
   * A meta executor that also starts the backfill of `CREATE MATERIALIZED VIEW ... WITH BACKFILL`
   * (in the background: the statement answers at once). Pass it to `executeStatements`.
   */
  metaExecutor(inner: MetaExecutor): MetaExecutor {
    return async (stmt, ctx) => {
      const out = await inner(stmt, ctx);
      if (stmt.kind === 'CreateMaterializedView' && stmt.backfill) {
        this.backfill(stmt.database, stmt.name).catch((err: unknown) => this.logger.error({ view: stmt.name, err }, 'materialized view backfill failed'));
      }
      return out;
    };
  }

  /** Recompute every dirty window now. Never rejects; a call during a pass schedules one more. */
  runOnce(): Promise<void> {
    return this.runner.run();
  }

  private async pass(): Promise<void> {
    this.counters.ticks++;
    if (this.options.isLeader && !this.options.isLeader()) return;
    const views = parsedViews(this.engine.catalog);
    const live = new Set(views.map((v) => v.key));
    for (const k of this.dirty.keys()) if (!live.has(k)) this.dirty.delete(k);
    const maxWindows = BigInt(this.options.maxWindowsPerQuery ?? 10_000);
    for (const v of views) {
      const d = this.dirty.get(v.key);
      if (!d || d.size === 0 || this.engine.state.stopping) continue;
      const nowNs = this.now();
      if ((this.failedUntil.get(v.key) ?? nowNs) > nowNs) continue;
      const pending = d.take().flatMap((r) => chunks(r, v.w.intervalNs * maxWindows));
      while (pending.length > 0) {
        const c = pending[0]!;
        if (!(await this.recompute(v, c.start, c.end, nowNs))) break;
        pending.shift();
      }
      if (pending.length > 0) {
        for (const c of pending) d.add(c.start, c.end);
        this.failedUntil.set(v.key, nowNs + BigInt(this.options.retryAfterMs ?? 30_000) * MS);
      } else this.failedUntil.delete(v.key);
    }
  }

  private async recompute(v: ParsedView, startNs: bigint, endNs: bigint, nowNs: bigint): Promise<boolean> {
    const { database, name } = v.info;
    const ctx: QueryContext = { engine: this.engine, database, retentionPolicy: '', nowNs };
    let error: string | undefined;
    let written = 0;
    try {
      const [result] = await executeStatements([withTimeRange(v.w, startNs, endNs)], ctx);
      error = result?.error;
      const cell = result?.series?.[0]?.values[0]?.[1];
      if (typeof cell === 'number') written = cell;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    if (error === undefined) {
      this.counters.recomputes++;
      this.counters.pointsWritten += written;
    } else {
      this.counters.errors++;
      this.logger.error({ db: database, view: name, error }, 'materialized view recompute failed');
    }
    this.options.onRun?.({ database, name, startNs, endNs, written, ...(error === undefined ? {} : { error }) });
    return error === undefined;
  }
}

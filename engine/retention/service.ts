/**
 * Retention enforcement (spec "Retention enforcement", decisions.md "retention enforcement"):
 * every `retention.interval`, for each retention policy with a finite duration, with
 * cutoff = now - duration:
 *
 * 1. One tombstone over [MIN, cutoff) scoped to the policy (`Engine.delete`). It trims the
 *    shard that straddles the cutoff, removes expired rows from every cache at once, and keeps
 *    WAL replay from bringing them back. It subsumes the earlier retention tombstones of the
 *    policy (same shape, smaller range, lower sequence, lower file marks), which are removed
 *    so the catalog does not grow by one tombstone per run.
 * 2. Shards whose whole range ends at or before the cutoff are dropped (remove-shards.ts),
 *    as 1.x deletes them: their field sets and rows go with them.
 *
 * Points older than the cutoff that arrive after a run stay visible until the next run.
 * Runs never overlap; a failure for one policy is logged and counted, the others still run.
 */
import type { Engine } from '../engine.js';
import type { EngineLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { RetentionPolicyInfo, TombstoneInfo } from '../meta/model.js';
import { TRUE_EXPR } from '../series/tag-expr.js';
import { MIN_TIME_NS } from '../time.js';
import { sweepDropped } from './drop-dir.js';
import { removeShards } from './remove-shards.js';

export interface RetentionOptions {
  /** `retention.interval` in ms; the loop period. */
  readonly intervalMs: number;
  /** Wall clock in ms since the epoch (injected by tests). */
  readonly now?: () => number;
  readonly logger?: EngineLogger;
}

/** Monotonic counters for /metrics and SHOW STATS. */
export interface RetentionCounters {
  runs: number;
  shardsDropped: number;
  tombstonesWritten: number;
  tombstonesSuperseded: number;
  errors: number;
  /** ms since the epoch of the last finished run (0: none yet). */
  lastRunMs: number;
}

const NS_PER_MS = 1_000_000n;
const TRUE_JSON = JSON.stringify(TRUE_EXPR);

/** An earlier retention-shaped tombstone of `rp` that a new one ending at `maxNs` covers. */
function supersededBy(t: TombstoneInfo, db: string, rp: string, maxNs: bigint): boolean {
  return (
    t.database === db &&
    t.retentionPolicy === rp &&
    t.measurements === null &&
    BigInt(t.minNs) === MIN_TIME_NS &&
    BigInt(t.maxNs) <= maxNs &&
    JSON.stringify(t.predicate) === TRUE_JSON
  );
}

export class RetentionService {
  readonly counters: RetentionCounters = { runs: 0, shardsDropped: 0, tombstonesWritten: 0, tombstonesSuperseded: 0, errors: 0, lastRunMs: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly logger: EngineLogger;

  constructor(
    private readonly engine: Engine,
    private readonly options: RetentionOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
  }

  /** Run once now (a device restarted more often than the interval still enforces), then every interval. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs);
    this.timer.unref();
    void this.runOnce();
  }

  /** Stop the timer and wait for a running pass. Call before `Engine.close()`. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One enforcement pass over every finite policy. Never rejects; a call during a pass joins it. */
  runOnce(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    const nowMs = this.now();
    for (const info of this.engine.catalog.databases()) {
      for (const rp of info.rps) {
        if (this.engine.state.stopping) return;
        if (rp.durationSec <= 0) continue;
        try {
          await this.enforce(info.name, rp, BigInt(nowMs) * NS_PER_MS - BigInt(rp.durationSec) * 1_000_000_000n);
        } catch (err) {
          this.counters.errors++;
          this.logger.error({ db: info.name, rp: rp.name, err }, 'retention enforcement failed');
        }
      }
      await this.sweep(info.name);
    }
    this.counters.runs++;
    this.counters.lastRunMs = nowMs;
  }

  private async enforce(db: string, rp: RetentionPolicyInfo, cutoffNs: bigint): Promise<void> {
    const set = this.engine.openedDatabase(db)?.shardSets.get(rp.name);
    if (!set || !set.shards.some((s) => s.baseNs < cutoffNs)) return;
    const maxNs = cutoffNs - 1n;
    const older = this.engine.catalog.tombstones().filter((t) => supersededBy(t, db, rp.name, maxNs));
    await this.engine.delete({ db, rp: rp.name, measurements: null, expr: TRUE_EXPR, minNs: MIN_TIME_NS, maxNs, dropSeries: false });
    this.counters.tombstonesWritten++;
    if (older.length > 0) {
      await this.engine.catalog.removeTombstones(new Set(older.map((t) => t.id)));
      this.counters.tombstonesSuperseded += older.length;
    }
    const expired = set.shards.filter((s) => s.endNs <= cutoffNs);
    const dropped = await removeShards(this.engine, db, set, expired, this.logger);
    this.counters.shardsDropped += dropped;
    for (const s of expired) this.logger.info({ db, rp: rp.name, startSec: s.startSec, spanSec: s.spanSec }, 'dropped expired shard');
  }

  private async sweep(db: string): Promise<void> {
    const database = this.engine.openedDatabase(db);
    if (!database) return;
    for (const set of database.shardSets.values()) {
      try {
        for (const name of await sweepDropped(set.dir)) this.logger.info({ db, rp: set.rp, dir: name }, 'removed leftover of an interrupted shard drop');
      } catch (err) {
        this.counters.errors++;
        this.logger.error({ db, rp: set.rp, err }, 'cannot remove leftovers of dropped shards');
      }
    }
  }
}

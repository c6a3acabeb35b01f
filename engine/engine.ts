/**
 * The storage engine: composes the catalog, the WAL, per-database series indexes and shard
 * caches, TSM files and the flusher. Entry points: `write` (line protocol → WAL → cache),
 * `writePoints` (already parsed points, for SELECT INTO and continuous queries) and `cursor`.
 */
import { tmpdir } from 'node:os';
import { Catalog, type RetentionPolicySpec } from './meta/catalog.js';
import type { RetentionPolicyInfo } from './meta/model.js';
import type { Database } from './database.js';
import { DatabaseRegistry } from './database-registry.js';
import { EngineClosedError, ReadOnlyError } from './errors.js';
import { initChecksum } from './fs/checksum.js';
import type { EngineOptions } from './options.js';
import type { Point, Precision } from './point.js';
import { fromNs, nowTime } from './time.js';
import { Wal, type WalWriteEntry } from './wal/wal.js';
import type { WalWriteAppend } from './wal/record.js';
import { describeLineError, parseLineProtocol, type ParseResult } from './lineprotocol/parse.js';
import { formatPoint } from './lineprotocol/format.js';
import { applyPoints } from './write/apply.js';
import { applyColumns } from './write/apply-columns.js';
import { admitNewColumns } from './write/admit-columns.js';
import { isKnownBatch } from './write/known-batch.js';
import { decodeColumns, type ColumnBatch } from './lineprotocol/columns.js';
import { ParsePool } from './lineprotocol/parse-pool.js';
import { FlushWorker } from './flush/flush-worker-pool.js';
import { WriteListeners } from './write/listeners.js';
import { OrderedLog, type LogSlot } from './write/ordered-log.js';
import { partialWriteError } from './write/partial.js';
import { admitPoints, dropExpired, keptFromSec, refusalsOf } from './write/admit.js';
import { createShardsOf, shardsBeforeBatch } from './write/shard-write.js';
import { applyWriteGuard, type WriteGuard } from './write/write-guard.js';
import { EMPTY_CURSOR, type Cursor, type CursorRequest } from './query/cursor.js';
import { SeriesCursor } from './query/series-cursor.js';
import { shardReadCost, type ReadCost } from './query/read-cost.js';
import { tsmRuns } from './query/file-runs.js';
import { Flusher, type FlushObserver } from './flush/flusher.js';
import { BlockCache } from './tsm/block-cache.js';
import { Tombstones } from './tombstone/tombstones.js';
import { CompactionService } from './compact/service.js';
import { collectTombstones, shardDirUnder, type Collected } from './tombstone/collector.js';
import type { Shard } from './shard/shard.js';
import { applyDelete, type DeleteRequest } from './write/delete.js';
import { MAX_TIME_NS, MIN_TIME_NS } from './time.js';
import { schemaVersion } from './meta/schema-version.js';
import { TRUE_EXPR } from './series/tag-expr.js';
import { scratchOptions, warmUpInScratch, type WarmupReport } from './write/warmup.js';
import { makeDirDurable } from './fs/atomic.js';
import { adoptRetentionPolicy, catalogDropped } from './orphan-storage.js';
import { finishInterruptedRestore } from './backup/restore.js';

export interface WriteRequest {
  readonly db: string;
  /** Empty or undefined: the database's default policy. */
  readonly rp?: string;
  readonly precision: Precision;
  readonly body: Uint8Array;
}

export interface EngineState {
  readOnly: boolean;
  stopping: boolean;
}

/** Worker threads a scratch engine borrows from the engine that owns them (warmUpWritePath). */
interface BorrowedWorkers {
  readonly parsePool: ParsePool;
  readonly flushWorker: FlushWorker | undefined;
}

export class Engine {
  readonly state: EngineState = { readOnly: false, stopping: false };
  /** The databases whose storage is open, in step with the catalog. */
  private readonly databases: DatabaseRegistry;
  /** WAL appends in flight, and the order in which they reach the caches. */
  private readonly orderedLog: OrderedLog;
  /** Highest WAL sequence applied to the caches (every lower one is applied or cancelled: ordered-log.ts). */
  private appliedSeqValue = 0n;
  private ddlLane: Promise<void> = Promise.resolve();
  private cacheBytesSinceFlush = 0;
  readonly blockCache: BlockCache;
  readonly flusher: Flusher;
  readonly tombstones = new Tombstones();
  /**
   * Refuses client writes to some measurements (materialized-view targets); returns the reason.
   * writePoints (CQs, views, INTO) is not guarded.
   */
  writeGuard: WriteGuard | undefined;
  readonly compactor: CompactionService;
  /** Told the (db, rp, measurement, time range) of every applied write (materialized views). */
  readonly writeListeners = new WriteListeners();
  /** Worker threads that parse write bodies (options.parseWorkers; 0 = parse on the event loop). */
  private readonly parsePool: ParsePool;
  /** Encodes snapshots into TSM files beside the event loop (options.flushWorker). */
  private readonly flushWorker: FlushWorker | undefined;
  /** False for a scratch engine: its workers belong to another engine, which closes them. */
  private readonly ownsWorkers: boolean;

  private constructor(
    readonly options: EngineOptions,
    readonly catalog: Catalog,
    private readonly wal: Wal,
    observer: FlushObserver,
    borrowed?: BorrowedWorkers,
  ) {
    this.blockCache = new BlockCache({ maxBytes: options.blockCacheBytes });
    this.orderedLog = new OrderedLog(
      (entry) => wal.append(entry),
      (seq) => wal.cancelLater(seq),
    );
    this.ownsWorkers = borrowed === undefined;
    this.parsePool = borrowed?.parsePool ?? new ParsePool(options.parseWorkers, (threadId) => options.logger.info({ threadId }, 'write parse worker online'));
    this.flushWorker = borrowed
      ? borrowed.flushWorker
      : options.flushWorker
        ? new FlushWorker((threadId) => options.logger.info({ threadId }, 'flush worker online'))
        : undefined;
    const engine = this;
    this.flusher = new Flusher(
      {
        databases: () => engine.databases.values(),
        get appliedSeq() {
          return engine.appliedSeqValue;
        },
        truncateWal: (seq) => engine.wal.truncateUpTo(seq),
      },
      { maxPointsPerBlock: options.maxPointsPerBlock, logger: options.logger, blockCache: this.blockCache, worker: this.flushWorker },
      observer,
    );
    this.compactor = new CompactionService({
      shards: () => this.allShards(),
      filter: this.tombstones,
      logger: options.logger,
      maxPointsPerBlock: options.maxPointsPerBlock,
      coldAfterMs: options.compaction.coldAfterMs,
      maxFileBytes: options.compaction.maxFileBytes,
      ...(this.flushWorker && { worker: this.flushWorker }),
      afterRound: async () => {
        const { marksDropped, tombstonesRemoved } = await this.collectTombstones();
        if (marksDropped > 0 || tombstonesRemoved > 0) options.logger.info({ marksDropped, tombstonesRemoved }, 'collected tombstones');
      },
    });
    this.databases = new DatabaseRegistry({
      options,
      catalog,
      blockCache: this.blockCache,
      tombstones: this.tombstones,
      compactor: this.compactor,
      flushSettled: (db) => this.flusher.settledFor(db),
      stopping: () => this.state.stopping,
    });
  }

  /** Drop the tombstones, and the per-shard marks, that nothing needs any more (tombstone/collector.ts). */
  collectTombstones(): Promise<Collected> {
    // Built on the first question only: most rounds find no tombstone at all.
    let byKey: Map<string, Shard> | undefined;
    return collectTombstones({
      tombstones: () => this.catalog.tombstones(),
      shard: (key) => (byKey ??= new Map(this.allShards().map((s) => [s.key, s]))).get(key),
      shardDir: (key) => {
        const [db, rp] = key.split('\u0000');
        const set = this.databases.get(db ?? '')?.shardSets.get(rp ?? '');
        return set && shardDirUnder(set.dir, key);
      },
      flushing: this.flusher.busy,
      walFirstSeq: this.wal.firstSeq,
      hasHiddenRows: (shard, reader) => this.compactor.hasHiddenRows(shard, reader),
      replacedFilesLinger: (shard) => this.compactor.replacedFilesLinger(shard),
      revise: (marks, remove) => this.catalog.reviseTombstones(marks, remove),
    });
  }

  /** Every open shard of every database (compaction, retention). */
  allShards(): Shard[] {
    return this.databases.allShards();
  }

  static async open(options: EngineOptions, observer: FlushObserver = {}): Promise<Engine> {
    const engine = await Engine.construct(options, observer);
    // The parse workers load their modules while the WAL replays, not on the first write.
    engine.parsePool.warm();
    const catalog = engine.catalog;
    engine.tombstones.reset(catalog.tombstones());
    try {
      await engine.databases.openAll();
      await engine.replayWal();
    } catch (err) {
      await engine.parsePool.close();
      await engine.wal.close();
      throw err;
    }
    catalog.onChange(() => {
      engine.tombstones.reset(catalog.tombstones());
      void engine.databases.sync();
    });
    engine.flusher.start(options.flushIntervalSec);
    if (options.compaction.intervalMs > 0) engine.compactor.start(options.compaction.intervalMs);
    return engine;
  }

  /** The engine over its catalog and WAL, nothing loaded or started yet. */
  private static async construct(options: EngineOptions, observer: FlushObserver, borrowed?: BorrowedWorkers): Promise<Engine> {
    await initChecksum();
    // Before any directory is opened (or created in place of one a restore moved aside).
    await finishInterruptedRestore(options.walDir, options.logger);
    await makeDirDurable(options.dataDir);
    const catalog = await Catalog.open(options.metaDir, options.logger);
    // Sequence numbers must stay above every tombstone's, even if the WAL directory was lost.
    const minLastSeq = catalog.tombstones().reduce((m, t) => (BigInt(t.seq) > m ? BigInt(t.seq) : m), 0n);
    const wal = await Wal.open(options.walDir, { ...options.wal, minLastSeq }, options.logger);
    return new Engine(options, catalog, wal, observer, borrowed);
  }

  /**
   * Runs the write path over generic synthetic data before the first real write, so that V8
   * compiles it in the event loop and in this engine's workers while no client waits
   * (write/warmup.ts), through a scratch engine in a fresh directory under `scratchParent`
   * that borrows this engine's workers: nothing reaches this engine's directories, caches or WAL.
   */
  warmUpWritePath(scratchParent = tmpdir(), deadlineMs?: number): Promise<WarmupReport> {
    return warmUpInScratch(scratchParent, async (dir) => {
      const scratch = await Engine.construct(scratchOptions(this.options, dir), {}, { parsePool: this.parsePool, flushWorker: this.flushWorker });
      // The function the real writes call (the server's views), so that V8's feedback on that
      // call stays monomorphic; a scratch database of the same name as a view's would fail the warm-up.
      scratch.writeGuard = this.writeGuard;
      return {
        createDatabase: (name) => scratch.catalog.createDatabase(name),
        write: (req) => scratch.write(req),
        flush: () => scratch.flush(),
        compact: async () => {
          await scratch.compactor.runOnce();
          return scratch.compactor.counters.compactions;
        },
        close: () => scratch.close(),
      };
    }, deadlineMs);
  }

  private async replayWal(): Promise<void> {
    let entries = 0;
    let points = 0;
    for await (const e of this.wal.replay(0n)) {
      points += await this.replayEntry(e);
      entries++;
    }
    if (entries > 0) this.options.logger.info({ entries, points }, 'WAL replayed into the cache');
  }

  private async replayEntry(e: WalWriteEntry): Promise<number> {
    const known = () => this.catalog.database(e.db)?.rps.find((r) => r.name === e.rp);
    // Points of a database or policy whose catalog entry is missing, not dropped (orphan-storage.ts).
    if (!known() && !catalogDropped(this.catalog, e.db, e.rp)) await adoptRetentionPolicy(this.catalog, e.db, e.rp, undefined, this.options.logger);
    const rp = known();
    if (!rp) return 0;
    const db = await this.databases.openDatabase(e.db);
    const { points } = parseLineProtocol(e.lines, { precision: e.precision, defaultSec: e.defaultSec, defaultNsec: e.defaultNsec });
    const ok: Point[] = [];
    for (const p of points) {
      if (this.tombstones.hidesReplayed(e.db, e.rp, e.seq, p)) continue;
      if (db.index.check(p) === undefined) {
        db.register(p);
        db.registerRpFields(rp.name, p);
        ok.push(p);
      }
    }
    this.noteApplied(applyPoints(db, rp, ok, e.seq), e.seq);
    db.placeFields();
    return ok.length;
  }

  /** The open storage of a database in the catalog. */
  database(name: string): Promise<Database> {
    return this.databases.database(name);
  }

  /**
   * Moves whenever databases, retention policies, measurements, field types, tag keys or shards
   * change (meta/schema-version.ts): what a compiled query plan depends on.
   */
  get schemaVersion(): number {
    return schemaVersion();
  }

  /** Synchronous lookup for readers: undefined when the database has no storage yet. */
  openedDatabase(name: string): Database | undefined {
    return this.databases.get(name);
  }

  /**
   * Whether a shard of `db`.`rp` overlaps [startNs, endNs]. 1.x reads a query's field types
   * from the shards its time range maps to, so a range that maps to none knows no fields.
   */
  hasShardOverlapping(db: string, rp: string, startNs: bigint, endNs: bigint): boolean {
    return this.shardsOverlapping(db, rp, startNs, endNs).length > 0;
  }

  /** The shards of `db`.`rp` whose time range meets [startNs, endNs] (none when the database has no storage yet). */
  shardsOverlapping(db: string, rp: string, startNs: bigint, endNs: bigint): Shard[] {
    return this.databases.shardsOverlapping(db, rp, startNs, endNs);
  }

  /**
   * The fields of `measurement` with data in the shards of db.rp that meet [startNs, endNs]
   * (1.x's per-shard field sets); undefined when none meets the range.
   */
  fieldsInRange(db: string, rp: string, measurement: string, startNs: bigint, endNs: bigint): ReadonlySet<string> | undefined {
    const shards = this.shardsOverlapping(db, rp, startNs, endNs);
    if (shards.length === 1) return shards[0]!.fields.of(measurement);
    if (shards.length === 0) return undefined;
    const out = new Set<string>();
    for (const shard of shards) for (const f of shard.fields.of(measurement)) out.add(f);
    return out;
  }

  /** True when every shard of db.rp records the same fields for `measurement`: no time range changes them. */
  fieldsUniform(db: string, rp: string, measurement: string): boolean {
    const shards = this.databases.shardsOverlapping(db, rp, MIN_TIME_NS, MAX_TIME_NS);
    const first = shards[0]?.fields.of(measurement);
    for (const shard of shards) {
      const fields = shard.fields.of(measurement);
      if (!first || fields.size !== first.size) return false;
      for (const f of fields) if (!first.has(f)) return false;
    }
    return true;
  }

  private assertWritable(): void {
    if (this.state.stopping) throw new EngineClosedError();
    if (this.state.readOnly) throw new ReadOnlyError();
  }

  /**
   * Store a line-protocol body. Resolves once the accepted points are in the WAL and
   * fsynced (and visible to reads), with the number of points stored; rejects with a typed
   * error otherwise. With some bad lines, the good ones are stored and a PartialWriteError
   * (400/422, carrying how many were stored) is thrown.
   *
   * The body is logged while it is parsed (write/ordered-log.ts); what depends on order
   * happens in the write's turn, once every earlier write is applied.
   */
  async write(req: WriteRequest): Promise<number> {
    this.assertWritable();
    this.catalog.requireDatabase(req.db);
    const rp = this.catalog.resolveRetentionPolicy(req.db, req.rp);
    const now = nowTime();
    const opts = { precision: req.precision, defaultSec: now.sec, defaultNsec: now.nsec };
    const slot = this.orderedLog.reserve(walEntry(req.db, rp.name, req.precision, req.body, now));
    // True once the slot's record is applied as logged, or cancelled: else the finally cancels it.
    let settled = false;
    try {
      const worked = await this.parsePool.parse(req.body, opts);
      let parsed: ParseResult;
      try {
        await slot.turn;
        this.assertWritable();
        if (worked) {
          const stored = await this.writeKnownBatch(req, rp, worked.batch, now, slot);
          if (stored !== undefined) {
            settled = true;
            return stored;
          }
        }
        parsed = worked ? decodeColumns(worked.batch) : parseLineProtocol(req.body, opts);
      } finally {
        worked?.release();
      }
      const parseFailures = parsed.errors.filter((e) => e.refused === undefined).map(describeLineError);
      const keptSec = keptFromSec(rp, now.sec, this.options.rejectWritesBeyondRetention);
      const refusals = refusalsOf(parsed.errors, keptSec);
      const fresh = dropExpired(parsed.points, keptSec);
      const guarded = applyWriteGuard(this.writeGuard, req.db, rp.name, fresh);
      const db = await this.database(req.db);
      const { accepted, rejected, indexedOnly, unlistedWritten } = admitPoints(db, rp.name, guarded.points, refusals.series, shardsBeforeBatch(db, rp));
      // 1.x creates a point's shard before refusing it: SHOW SERIES finds the series, the next write the shard (write/shard-write.ts).
      await createShardsOf(db.shardSet(rp.name), [...indexedOnly, ...refusals.shardSecs], keptSec, rp.shardGroupDurationSec, (shard) => shard.ensureFiles(this.options.logger, this.blockCache));
      db.placeFields();
      rejected.unshift(...refusals.rejected);
      rejected.push(...guarded.rejected);
      if (parseFailures.length === 0 && rejected.length === 0) {
        if (accepted.length > 0) await this.commit(slot, req.db, (db, seq) => applyPoints(db, rp, accepted, seq), () => this.writeListeners.notify(req.db, rp.name, accepted));
        settled = true;
        return accepted.length + unlistedWritten;
      }
      // The body holds lines that were refused: replay must not see it whole. The kept points
      // get a record (and a turn) of their own.
      await this.orderedLog.cancel(slot);
      settled = true;
      slot.done();
      if (accepted.length > 0) await this.logPoints(req.db, rp, accepted);
      throw partialWriteError(parseFailures, rejected, accepted.length + unlistedWritten);
    } finally {
      if (!settled) await this.orderedLog.cancel(slot).catch((err: unknown) => this.options.logger.warn({ err: String(err) }, 'could not cancel the WAL record of a failed write'));
      // The WAL copies the body when its group is written: the caller may reuse it after this.
      await slot.seq.catch(() => undefined);
      slot.done();
    }
  }

  /**
   * A worker-parsed body whose series and fields are known (write/known-batch.ts) or only new
   * (write/admit-columns.ts registers them): the slot's raw body is the record and the columns
   * go into the cache. Answers the points stored, or undefined: take the point-by-point path.
   */
  private async writeKnownBatch(req: WriteRequest, rp: RetentionPolicyInfo, b: ColumnBatch, now: { sec: number; nsec: number }, slot: LogSlot): Promise<number | undefined> {
    const db = await this.database(req.db);
    const guard = this.writeGuard;
    const rules = {
      rp: rp.name,
      minSec: keptFromSec(rp, now.sec, this.options.rejectWritesBeyondRetention),
      guard: guard && ((m: string) => guard(req.db, rp.name, m)),
    };
    const admitted = isKnownBatch(db, b, rules) || admitNewColumns(db, b, rules);
    // Fields of points whose shard the columns below create reach it through its cache.
    db.placeFields();
    if (!admitted) return undefined;
    if (b.pointSeries.length === 0) return 0;
    const notify = (): void => this.writeListeners.notifyColumns(req.db, rp.name, b);
    await this.commit(slot, req.db, (d, seq) => applyColumns(d, rp, b, seq), notify);
    return b.pointSeries.length;
  }

  /** Store already parsed points (SELECT INTO, continuous queries); same durability as write(). */
  async writePoints(dbName: string, rpName: string | undefined, points: readonly Point[]): Promise<void> {
    this.assertWritable();
    const rp = this.catalog.resolveRetentionPolicy(dbName, rpName);
    const db = await this.database(dbName);
    const { accepted, rejected } = admitPoints(db, rp.name, points, [], shardsBeforeBatch(db, rp));
    db.placeFields();
    if (accepted.length > 0) await this.logPoints(dbName, rp, accepted);
    if (rejected.length > 0) throw partialWriteError([], rejected, accepted.length);
  }

  /** Log points re-encoded as line protocol under a slot of their own, then apply them in its turn. */
  private async logPoints(dbName: string, rp: RetentionPolicyInfo, points: Point[]): Promise<void> {
    const lines = Buffer.from(points.map(formatPoint).join('\n'), 'utf8');
    const slot = this.orderedLog.reserve(walEntry(dbName, rp.name, 'ns', lines, nowTime()));
    try {
      await slot.turn;
      await this.commit(
        slot,
        dbName,
        (db, seq) => applyPoints(db, rp, points, seq),
        () => this.writeListeners.notify(dbName, rp.name, points),
      );
    } catch (err) {
      await this.orderedLog.cancel(slot).catch(() => undefined);
      throw err;
    } finally {
      slot.done();
    }
  }

  /** In the slot's turn: wait for its record to be durable, then apply to the caches and tell the listeners. */
  private async commit(slot: LogSlot, dbName: string, apply: (db: Database, seq: bigint) => number, notify: () => void): Promise<void> {
    const seq = await slot.seq;
    const db = this.databases.get(dbName);
    if (db) this.noteApplied(apply(db, seq), seq);
    notify();
  }

  private noteApplied(bytes: number, seq: bigint): void {
    if (seq > this.appliedSeqValue) this.appliedSeqValue = seq;
    this.cacheBytesSinceFlush += bytes;
    if (this.cacheBytesSinceFlush >= this.options.cacheSnapshotBytes) {
      this.cacheBytesSinceFlush = 0;
      void this.flusher.flush().catch(() => undefined);
    }
  }

  /** Flush every cache to TSM and truncate the WAL (the flush service runs this on its timer). */
  flush(): Promise<void> {
    this.cacheBytesSinceFlush = 0;
    return this.flusher.flush();
  }

  /** Resolves when the parse workers (started at open) and the flush worker have loaded their modules. */
  async whenWorkersLoaded(): Promise<void> {
    await Promise.all([this.parsePool.whenLoaded(), this.flushWorker?.warm()]);
  }

  /** A cursor over one series-field (see query/cursor.ts for the contract). */
  cursor(req: CursorRequest): Cursor {
    const db = this.databases.get(req.db);
    const type = db?.index.measurement(req.measurement)?.fields.get(req.field);
    const set = db?.shardSets.get(req.rp);
    if (!db || type === undefined || !set) return EMPTY_CURSOR;
    const minSec = Number(req.startNs / 1_000_000_000n) - 1;
    const maxSec = Number(req.endNs / 1_000_000_000n) + 1;
    const only = req.shardStarts;
    const shards = set.overlapping(minSec, maxSec);
    return new SeriesCursor(only ? shards.filter((s) => only.has(s.startSec)) : shards, req, type, (...a) => tsmRuns(this.tombstones, ...a));
  }

  /**
   * EXPLAIN's cost of reading one series-field of `shard` (one of shardsOverlapping's) over
   * [startNs, endNs]: cached values, files, blocks and their bytes, from indexes only.
   */
  readCost(shard: Shard, seriesKey: string, field: string, startNs: bigint, endNs: bigint): ReadCost {
    return shardReadCost(shard, this.tombstones, seriesKey, field, startNs, endNs);
  }

  /** DELETE / DROP SERIES / DROP MEASUREMENT: see write/delete.ts. Answers without rewriting files. */
  async delete(req: DeleteRequest): Promise<void> {
    const db = await this.database(req.db);
    await applyDelete(db, this.catalog, this.tombstones, this.appliedSeqValue, req);
  }

  /**
   * CREATE DATABASE (idempotent for the same policy, catalog.ts). Waits until the storage of a
   * dropped database of the same name is deleted: answered before that, a crash left the old
   * directory in place under a name the catalog lists again, and the restart served the dropped
   * database's files as the new one's.
   */
  createDatabase(name: string, rp?: RetentionPolicySpec, makeDefault = true): Promise<void> {
    return this.databaseDdl(async () => {
      await this.databases.removal(name);
      await this.catalog.createDatabase(name, rp, makeDefault);
    });
  }

  /**
   * DROP DATABASE (idempotent). A tombstone over the whole database stays behind so WAL
   * entries of the dropped database are not replayed into a new database of the same name.
   * Answers once the database's directory is deleted (see createDatabase).
   */
  dropDatabase(name: string): Promise<void> {
    return this.databaseDdl(async () => {
      const seq = this.appliedSeqValue;
      await this.catalog.dropDatabase(name, {
        id: `drop-${name}-${seq}`,
        database: name,
        measurements: null,
        predicate: TRUE_EXPR,
        minNs: MIN_TIME_NS.toString(),
        maxNs: MAX_TIME_NS.toString(),
        seq: seq.toString(),
        marks: {},
        createdAt: new Date().toISOString(),
      });
      await this.databases.removal(name);
    });
  }

  /** Database creates and drops one at a time: a create must not slip between a drop's catalog save and its deletion. */
  private databaseDdl(fn: () => Promise<void>): Promise<void> {
    const run = this.ddlLane.then(fn, fn);
    this.ddlLane = run.catch(() => undefined);
    return run;
  }

  get lastWalSeq(): bigint {
    return this.wal.lastSeq;
  }

  /** Stop accepting writes, wait for in-flight ones, run one final flush, release everything. */
  async close(): Promise<void> {
    if (this.state.stopping) return;
    this.state.stopping = true;
    this.flusher.stop();
    await this.compactor.stop();
    await this.orderedLog.whenIdle();
    try {
      await this.flusher.flush();
    } catch (err) {
      this.options.logger.error({ err }, 'final flush failed; the WAL keeps the data');
    }
    await this.databases.closeAll();
    await this.wal.close();
    if (!this.ownsWorkers) return;
    await this.parsePool.close();
    await this.flushWorker?.close();
  }
}


/** The WAL record of a body: what replay needs to parse it exactly as the live write did. */
function walEntry(db: string, rp: string, precision: Precision, lines: Uint8Array, now: { sec: number; nsec: number }): WalWriteAppend {
  return { db, rp, precision, defaultSec: now.sec, defaultNsec: now.nsec, lines };
}

/**
 * The databases whose storage is open, kept in step with the catalog: opened from disk at
 * start (directories of databases the catalog no longer names are removed), opened on first
 * use after CREATE DATABASE, and closed and deleted after DROP DATABASE.
 *
 * Opens and drops of one name are serialised. Concurrent first writes to a database must share
 * one Database: two opens would give two indexes and two sets of shard caches, and points cached
 * in the one that lost the race were invisible to queries and never flushed (the WAL was
 * truncated under them). A database created again under a dropped name opens its directory only
 * after the drop's delete finished, or the delete would take its new files.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompactionService } from './compact/service.js';
import { Database, encodeName } from './database.js';
import { DatabaseNotFoundError, StorageIoError, StrataError } from './errors.js';
import type { Catalog } from './meta/catalog.js';
import { adoptDatabase, adoptRetentionPolicy, catalogDropped, catalogNamesAllStorage, decodedName, subdirectories } from './orphan-storage.js';
import type { EngineLogger } from './logger.js';
import { schemaChanged } from './meta/schema-version.js';
import type { EngineOptions } from './options.js';
import { loadShards } from './shard/loader.js';
import type { Shard } from './shard/shard.js';
import type { Tombstones } from './tombstone/tombstones.js';
import type { BlockCache } from './tsm/block-cache.js';

export interface DatabaseRegistryDeps {
  readonly options: Pick<EngineOptions, 'dataDir' | 'cardinality' | 'logger' | 'compaction'>;
  readonly catalog: Catalog;
  readonly blockCache: BlockCache;
  readonly tombstones: Tombstones;
  readonly compactor: CompactionService;
  /** Resolves once a flush round in progress is done with `db`'s shards (it may be writing them). */
  flushSettled(db: Database): Promise<void>;
  /** True once the engine is stopping (the compactor is not restarted after a drop). */
  stopping(): boolean;
}

export class DatabaseRegistry {
  private readonly open = new Map<string, Database>();
  /** Opens in flight, shared by concurrent callers. */
  private readonly opening = new Map<string, Opening>();
  /** Drops whose storage is still being closed and deleted. */
  private readonly dropping = new Map<string, Promise<void>>();

  constructor(private readonly deps: DatabaseRegistryDeps) {}

  /** Synchronous lookup for readers: undefined when the database has no storage open. */
  get(name: string): Database | undefined {
    return this.open.get(name);
  }

  values(): IterableIterator<Database> {
    return this.open.values();
  }

  /** Every open shard of every database (compaction, retention). */
  allShards(): Shard[] {
    const out: Shard[] = [];
    for (const db of this.open.values()) for (const set of db.shardSets.values()) out.push(...set.shards);
    return out;
  }

  /** The shards of `db`.`rp` whose time range meets [startNs, endNs] (none when the database has no storage yet). */
  shardsOverlapping(db: string, rp: string, startNs: bigint, endNs: bigint): Shard[] {
    return this.open.get(db)?.shardSets.get(rp)?.shards.filter((s) => s.endNs > startNs && s.baseNs <= endNs) ?? [];
  }

  /**
   * At start: deals with the directories of databases the catalog does not name (removed when
   * it records their drop, else adopted: orphan-storage.ts), then opens every database the
   * catalog names.
   */
  async openAll(): Promise<void> {
    const { catalog, options } = this.deps;
    const known = new Set(catalog.databases().map((d) => encodeName(d.name)));
    for (const dir of await subdirectories(options.dataDir)) {
      if (known.has(dir)) continue;
      const name = decodedName(dir);
      if (name === undefined) {
        options.logger.warn({ dir: join(options.dataDir, dir) }, 'ignoring a directory whose name encodes no database');
      } else if (catalogDropped(catalog, name)) {
        // A DROP DATABASE interrupted between its catalog save and the deletion: garbage.
        options.logger.warn({ dir: name }, 'removing data of a database that is not in the catalog');
        await rm(join(options.dataDir, dir), { recursive: true, force: true });
      } else {
        await adoptDatabase(catalog, name, join(options.dataDir, dir), options.logger);
      }
    }
    for (const info of catalog.databases()) await this.openDatabase(info.name);
  }

  /** The open storage of a database in the catalog. */
  database(name: string): Promise<Database> {
    if (!this.deps.catalog.database(name)) return Promise.reject(new DatabaseNotFoundError(name));
    return this.openDatabase(name);
  }

  /** The database's storage, opened when it is not yet (the catalog is not asked: WAL replay). */
  openDatabase(name: string): Promise<Database> {
    const open = this.open.get(name);
    if (open) return Promise.resolve(open);
    const known = this.opening.get(name);
    if (known) return known.promise;
    const dropped = this.dropping.get(name) ?? Promise.resolve();
    const entry: Opening = { promise: dropped.then(() => this.load(name, entry)).catch(asStorageError(name)), dropped: false };
    this.opening.set(name, entry);
    // Runs before the callers' reactions: none of them finds this open still in flight.
    const forget = () => {
      if (this.opening.get(name) === entry) this.opening.delete(name);
    };
    entry.promise.then(forget, forget);
    return entry.promise;
  }

  private async load(name: string, entry: Opening): Promise<Database> {
    const { catalog, options, blockCache, tombstones } = this.deps;
    const db = await Database.open(options.dataDir, name, options.cardinality, options.logger);
    if (!catalogNamesAllStorage(catalog)) await adoptPolicies(catalog, name, db.dir, options.logger);
    const rps = catalog.database(name)?.rps.map((r) => r.name) ?? [];
    await loadShards(db, rps, options.logger, blockCache);
    if (db.indexDamaged) {
      const series = await db.completeFromFiles();
      if (series > 0) options.logger.warn({ db: name, series }, 'series index completed from TSM keys (the series log was damaged or empty)');
    }
    if (entry.dropped || !catalog.database(name)) {
      // Dropped while we were opening it: its directory goes as after any drop, or a database
      // created again under the name would find it (sync() waits for this as the drop's removal).
      await closeStorage(db);
      await rm(db.dir, { recursive: true, force: true });
      throw new DatabaseNotFoundError(name);
    }
    // Generations handed out as tombstone marks were never written to disk: keep new files above them.
    for (const set of db.shardSets.values()) {
      for (const shard of set.shards) {
        shard.generationFloor = tombstones.markFloor(shard);
        shard.files?.reserveBelow(shard.generationFloor);
      }
    }
    this.open.set(name, db);
    schemaChanged();
    return db;
  }

  /**
   * Keep open databases in step with the catalog (create opens lazily; drop closes and deletes).
   * Every removal is registered before the first await (the catalog calls this right after its
   * save), so `removal(name)` already covers a drop when the drop's catalog save resolves; the
   * removals themselves run one after the other.
   */
  async sync(): Promise<void> {
    const removals: Promise<void>[] = [];
    let chain: Promise<void> = Promise.resolve();
    for (const [name, entry] of this.opening) {
      if (this.deps.catalog.database(name)) continue;
      // Its open removes the directory itself (load); the drop answers once that is done, and
      // a later open of the name starts afresh after it.
      entry.dropped = true;
      this.opening.delete(name);
      const removal = entry.promise.then(
        () => undefined,
        () => undefined,
      );
      this.dropping.set(name, removal);
      removals.push(
        removal.finally(() => {
          if (this.dropping.get(name) === removal) this.dropping.delete(name);
        }),
      );
    }
    for (const [name, db] of this.open) {
      if (this.deps.catalog.database(name)) continue;
      this.open.delete(name);
      schemaChanged();
      const previous = this.dropping.get(name) ?? Promise.resolve();
      const removal = Promise.all([previous, chain]).then(() => this.removeStorage(db));
      chain = removal.catch(() => undefined);
      this.dropping.set(name, removal);
      removals.push(
        removal.finally(() => {
          if (this.dropping.get(name) === removal) this.dropping.delete(name);
        }),
      );
    }
    await Promise.all(removals);
  }

  /** Resolves once the storage of a dropped database of this name is deleted (at once when none is being deleted). */
  removal(name: string): Promise<void> {
    return this.dropping.get(name) ?? Promise.resolve();
  }

  /** Close a dropped database's shards and delete its directory. */
  private async removeStorage(db: Database): Promise<void> {
    const { compactor, options } = this.deps;
    // A flush round that listed these shards may still be writing them: closing them under
    // it failed the round, and a late write re-created the deleted directory. Rounds after it
    // no longer see the database, so waiting for that one to be done with them is enough.
    await this.deps.flushSettled(db);
    // The compactor must not be holding the shards we are about to delete.
    await compactor.stop();
    for (const set of db.shardSets.values()) for (const shard of set.shards) await shard.close();
    if (!this.deps.stopping() && options.compaction.intervalMs > 0) compactor.start(options.compaction.intervalMs);
    await db.close();
    await rm(db.dir, { recursive: true, force: true });
  }

  /** Closes every open database's shards and files (engine close, after the final flush). */
  async closeAll(): Promise<void> {
    for (const db of this.open.values()) await closeStorage(db);
  }
}

/** An open in flight; `dropped` once a DROP DATABASE of its name came while it ran. */
interface Opening {
  readonly promise: Promise<Database>;
  dropped: boolean;
}

/** Policies of a database's directory that a catalog older than the data does not name. */
async function adoptPolicies(catalog: Catalog, db: string, dbDir: string, logger: EngineLogger): Promise<void> {
  for (const dir of await subdirectories(dbDir)) {
    const rp = decodedName(dir);
    const info = catalog.database(db);
    if (rp !== undefined && info && !info.rps.some((r) => r.name === rp)) await adoptRetentionPolicy(catalog, db, rp, join(dbDir, dir), logger);
  }
}

async function closeStorage(db: Database): Promise<void> {
  for (const set of db.shardSets.values()) for (const shard of set.shards) await shard.close();
  await db.close();
}

/**
 * A file-system failure while opening a database's storage (its directory, series log, shard
 * files) as a StorageIoError naming the database and the cause: the write or query that waited
 * for it answers 500 with that text instead of a generic internal error. The next call tries
 * the open again.
 */
function asStorageError(name: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof StrataError && !(err instanceof StorageIoError)) throw err;
    throw new StorageIoError(`cannot open the storage of database ${JSON.stringify(name)}: ${(err as Error).message}`, { cause: err });
  };
}

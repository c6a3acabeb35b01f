/**
 * The metadata catalog: databases (creation order), retention policies, users and grants,
 * continuous queries and materialized views. Reads are synchronous from memory; every
 * mutation is serialised and durable (CatalogStore) before it resolves.
 */
import { DatabaseNotFoundError, RetentionPolicyNotFoundError, StrataError } from '../errors.js';
import type { EngineLogger } from '../logger.js';
import { defaultShardGroupDurationSec, formatGoDuration } from '../time.js';
import { CatalogStore, type CatalogSource } from './store.js';
import { schemaChanged } from './schema-version.js';
import type {
  CatalogData,
  ContinuousQueryInfo,
  DatabaseInfo,
  MaterializedViewInfo,
  Privilege,
  TombstoneInfo,
  RetentionPolicyInfo,
  UserInfo,
} from './model.js';

/** A statement-level catalog error (1.x texts); reported in the statement's `error`. */
export class CatalogError extends StrataError {
  constructor(message: string) {
    super('catalog', 400, message);
  }
}

export const DEFAULT_RP_NAME = 'autogen';
const MIN_RP_DURATION_SEC = 3600;

export interface RetentionPolicySpec {
  readonly name: string;
  readonly durationSec: number;
  readonly replicaN: number;
  readonly shardGroupDurationSec?: number;
}

export class Catalog {
  private data: CatalogData;
  private queue: Promise<unknown> = Promise.resolve();
  private listeners: ((data: CatalogData) => void)[] = [];

  private constructor(
    private readonly store: CatalogStore,
    data: CatalogData,
  ) {
    this.data = data;
  }

  static async open(dir: string, logger: EngineLogger): Promise<Catalog> {
    const store = new CatalogStore(dir, logger);
    return new Catalog(store, await store.load());
  }

  /** Where start-up read the catalog from (store.ts): only `current` is the catalog as last saved. */
  get source(): CatalogSource {
    return this.store.source;
  }

  snapshot(): CatalogData {
    return this.data;
  }

  /** Called after every committed change (engine drops shards of dropped databases, etc.). */
  onChange(fn: (data: CatalogData) => void): void {
    this.listeners.push(fn);
  }

  databases(): readonly DatabaseInfo[] {
    return this.data.databases;
  }

  database(name: string): DatabaseInfo | undefined {
    return this.data.databases.find((d) => d.name === name);
  }

  requireDatabase(name: string): DatabaseInfo {
    const db = this.database(name);
    if (!db) throw new DatabaseNotFoundError(name);
    return db;
  }

  /** Resolve `rp` (or the default when empty) of `db`; typed 404 errors when missing. */
  resolveRetentionPolicy(dbName: string, rp: string | undefined): RetentionPolicyInfo {
    const db = this.requireDatabase(dbName);
    const name = rp ? rp : db.defaultRp;
    const info = name ? db.rps.find((r) => r.name === name) : undefined;
    if (!info) throw new RetentionPolicyNotFoundError(name ?? '');
    return info;
  }

  users(): readonly UserInfo[] {
    return this.data.users;
  }

  user(name: string): UserInfo | undefined {
    return this.data.users.find((u) => u.name === name);
  }

  continuousQueries(): readonly ContinuousQueryInfo[] {
    return this.data.continuousQueries;
  }

  materializedViews(): readonly MaterializedViewInfo[] {
    return this.data.materializedViews;
  }

  private mutate<T>(fn: (d: CatalogData) => { data: CatalogData; result: T }): Promise<T> {
    const run = async (): Promise<T> => {
      const { data, result } = fn(this.data);
      if (data !== this.data) {
        await this.store.save(data);
        this.data = data;
        schemaChanged();
        for (const l of this.listeners) l(data);
      }
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private static replaceDb(d: CatalogData, db: DatabaseInfo): CatalogData {
    return { ...d, databases: d.databases.map((x) => (x.name === db.name ? db : x)) };
  }

  createDatabase(name: string, rp?: RetentionPolicySpec, makeDefault = true): Promise<void> {
    return this.mutate((d) => {
      if (!name) throw new CatalogError('database name required');
      const existing = d.databases.find((x) => x.name === name);
      if (existing) {
        if (!rp) return { data: d, result: undefined };
        const have = existing.rps.find((r) => r.name === rp.name);
        // 1.x: only the same policy, and already the default when the statement would make it so
        if (have && sameRp(have, withDefaults(rp)) && (!makeDefault || existing.defaultRp === have.name)) return { data: d, result: undefined };
        throw new CatalogError('retention policy conflicts with an existing policy');
      }
      const policy = withDefaults(rp ?? { name: DEFAULT_RP_NAME, durationSec: 0, replicaN: 1 });
      validateRp(policy);
      const db: DatabaseInfo = { name, defaultRp: makeDefault ? policy.name : null, rps: [policy] };
      return { data: { ...d, databases: [...d.databases, db] }, result: undefined };
    });
  }

  /**
   * Idempotent like 1.x. Returns whether the database existed. `guard` (a tombstone over the
   * whole database) replaces its tombstones in the same durable step.
   */
  dropDatabase(name: string, guard?: TombstoneInfo): Promise<boolean> {
    return this.mutate((d) => {
      if (!d.databases.some((x) => x.name === name)) return { data: d, result: false };
      return {
        data: {
          ...d,
          databases: d.databases.filter((x) => x.name !== name),
          continuousQueries: d.continuousQueries.filter((c) => c.database !== name),
          materializedViews: d.materializedViews.filter((m) => m.database !== name),
          tombstones: [...d.tombstones.filter((t) => t.database !== name), ...(guard ? [guard] : [])],
        },
        result: true,
      };
    });
  }

  createRetentionPolicy(dbName: string, spec: RetentionPolicySpec, makeDefault: boolean): Promise<void> {
    return this.mutate((d) => {
      const db = d.databases.find((x) => x.name === dbName);
      if (!db) throw new DatabaseNotFoundError(dbName);
      const policy = withDefaults(spec);
      validateRp(policy);
      const have = db.rps.find((r) => r.name === spec.name);
      if (have) {
        if (sameRp(have, policy) && (!makeDefault || db.defaultRp === have.name)) return { data: d, result: undefined };
        throw new CatalogError('retention policy already exists');
      }
      const next: DatabaseInfo = {
        ...db,
        rps: [...db.rps, policy],
        defaultRp: makeDefault ? policy.name : db.defaultRp,
      };
      return { data: Catalog.replaceDb(d, next), result: undefined };
    });
  }

  alterRetentionPolicy(
    dbName: string,
    name: string,
    change: { durationSec?: number; replicaN?: number; shardGroupDurationSec?: number; makeDefault?: boolean },
  ): Promise<void> {
    return this.mutate((d) => {
      const db = d.databases.find((x) => x.name === dbName);
      if (!db) throw new DatabaseNotFoundError(dbName);
      const have = db.rps.find((r) => r.name === name);
      if (!have) throw new RetentionPolicyNotFoundError(name);
      const next: RetentionPolicyInfo = {
        ...have,
        durationSec: change.durationSec ?? have.durationSec,
        replicaN: change.replicaN ?? have.replicaN,
        shardGroupDurationSec: change.shardGroupDurationSec ?? have.shardGroupDurationSec,
      };
      validateRp(next);
      const updated: DatabaseInfo = {
        ...db,
        rps: db.rps.map((r) => (r.name === name ? next : r)),
        defaultRp: change.makeDefault ? name : db.defaultRp,
      };
      return { data: Catalog.replaceDb(d, updated), result: undefined };
    });
  }

  dropRetentionPolicy(dbName: string, name: string): Promise<void> {
    return this.mutate((d) => {
      const db = d.databases.find((x) => x.name === dbName);
      if (!db) throw new DatabaseNotFoundError(dbName);
      if (!db.rps.some((r) => r.name === name)) return { data: d, result: undefined };
      // 1.x keeps the dropped policy's name as the default: unqualified reads and writes then
      // fail with `retention policy not found: <name>` until another default is set.
      const updated: DatabaseInfo = { ...db, rps: db.rps.filter((r) => r.name !== name) };
      return { data: Catalog.replaceDb(d, updated), result: undefined };
    });
  }

  createUser(name: string, hash: string, admin: boolean): Promise<void> {
    return this.mutate((d) => {
      if (d.users.some((u) => u.name === name)) throw new CatalogError('user already exists');
      const user: UserInfo = { name, hash, admin, privileges: {} };
      return { data: { ...d, users: [...d.users, user] }, result: undefined };
    });
  }

  updateUser(name: string, fn: (u: UserInfo) => UserInfo): Promise<void> {
    return this.mutate((d) => {
      const user = d.users.find((u) => u.name === name);
      if (!user) throw new CatalogError('user not found');
      return { data: { ...d, users: d.users.map((u) => (u.name === name ? fn(u) : u)) }, result: undefined };
    });
  }

  setPrivilege(user: string, db: string, privilege: Privilege | null): Promise<void> {
    return this.updateUser(user, (u) => {
      const privileges = { ...u.privileges };
      if (privilege) privileges[db] = privilege;
      else delete privileges[db];
      return { ...u, privileges };
    });
  }

  dropUser(name: string): Promise<void> {
    return this.mutate((d) => {
      if (!d.users.some((u) => u.name === name)) throw new CatalogError('user not found');
      return { data: { ...d, users: d.users.filter((u) => u.name !== name) }, result: undefined };
    });
  }

  createContinuousQuery(cq: ContinuousQueryInfo): Promise<void> {
    return this.mutate((d) => {
      if (!d.databases.some((x) => x.name === cq.database)) throw new DatabaseNotFoundError(cq.database);
      const same = d.continuousQueries.find((c) => c.database === cq.database && c.name === cq.name);
      if (same) {
        if (same.queryText === cq.queryText) return { data: d, result: undefined };
        throw new CatalogError('continuous query already exists');
      }
      return { data: { ...d, continuousQueries: [...d.continuousQueries, cq] }, result: undefined };
    });
  }

  dropContinuousQuery(database: string, name: string): Promise<void> {
    return this.mutate((d) => {
      if (!d.continuousQueries.some((c) => c.database === database && c.name === name)) {
        throw new CatalogError('continuous query not found');
      }
      const rest = d.continuousQueries.filter((c) => !(c.database === database && c.name === name));
      return { data: { ...d, continuousQueries: rest }, result: undefined };
    });
  }

  createMaterializedView(mv: MaterializedViewInfo): Promise<void> {
    return this.mutate((d) => {
      if (!d.databases.some((x) => x.name === mv.database)) throw new DatabaseNotFoundError(mv.database);
      if (d.materializedViews.some((m) => m.database === mv.database && m.name === mv.name)) {
        throw new CatalogError('materialized view already exists');
      }
      return { data: { ...d, materializedViews: [...d.materializedViews, mv] }, result: undefined };
    });
  }

  dropMaterializedView(database: string, name: string): Promise<void> {
    return this.mutate((d) => {
      if (!d.materializedViews.some((m) => m.database === database && m.name === name)) {
        throw new CatalogError('materialized view not found');
      }
      const rest = d.materializedViews.filter((m) => !(m.database === database && m.name === name));
      return { data: { ...d, materializedViews: rest }, result: undefined };
    });
  }

  tombstones(): readonly TombstoneInfo[] {
    return this.data.tombstones;
  }

  addTombstone(t: TombstoneInfo): Promise<void> {
    return this.mutate((d) => ({ data: { ...d, tombstones: [...d.tombstones, t] }, result: undefined }));
  }

  removeTombstones(ids: ReadonlySet<string>): Promise<void> {
    return this.reviseTombstones(new Map(), ids);
  }

  /** Replace the marks of some tombstones and remove others, in one durable step. */
  reviseTombstones(marks: ReadonlyMap<string, Readonly<Record<string, number>>>, remove: ReadonlySet<string>): Promise<void> {
    return this.mutate((d) => {
      if (!d.tombstones.some((t) => marks.has(t.id) || remove.has(t.id))) return { data: d, result: undefined };
      const tombstones = d.tombstones.filter((t) => !remove.has(t.id)).map((t) => (marks.has(t.id) ? { ...t, marks: marks.get(t.id)! } : t));
      return { data: { ...d, tombstones }, result: undefined };
    });
  }

  /** Allocate a unique, never reused id (shards). */
  allocateId(): Promise<number> {
    return this.mutate((d) => ({ data: { ...d, nextId: d.nextId + 1 }, result: d.nextId }));
  }
}

function withDefaults(spec: RetentionPolicySpec): RetentionPolicyInfo {
  const shard = spec.shardGroupDurationSec || defaultShardGroupDurationSec(spec.durationSec);
  return {
    name: spec.name,
    durationSec: spec.durationSec,
    replicaN: spec.replicaN,
    // 1.x never lets a shard group outlast a finite policy.
    shardGroupDurationSec: spec.durationSec > 0 && shard > spec.durationSec ? spec.durationSec : shard,
  };
}

function sameRp(a: RetentionPolicyInfo, b: RetentionPolicyInfo): boolean {
  return a.durationSec === b.durationSec && a.replicaN === b.replicaN && a.shardGroupDurationSec === b.shardGroupDurationSec;
}

function validateRp(rp: RetentionPolicyInfo): void {
  if (!rp.name) throw new CatalogError('retention policy name required');
  if (rp.durationSec !== 0 && rp.durationSec < MIN_RP_DURATION_SEC) {
    throw new CatalogError(`retention policy duration must be at least ${formatGoDuration(MIN_RP_DURATION_SEC)}`);
  }
  if (rp.replicaN < 1) throw new CatalogError('replication factor must be greater than 0');
}

/** The metadata catalog's records: databases, retention policies, users, CQs, views, shards. */

export interface RetentionPolicyInfo {
  readonly name: string;
  /** 0 means infinite. */
  readonly durationSec: number;
  readonly shardGroupDurationSec: number;
  readonly replicaN: number;
}

export interface DatabaseInfo {
  readonly name: string;
  /** null after the default policy was dropped (1.x keeps the database without one). */
  readonly defaultRp: string | null;
  /** Creation order. */
  readonly rps: readonly RetentionPolicyInfo[];
}

/** NONE: every privilege on the database was revoked; 1.x keeps and shows the entry. */
export type Privilege = 'READ' | 'WRITE' | 'ALL' | 'NONE';

export interface UserInfo {
  readonly name: string;
  /** argon2id PHC string; never logged or returned. */
  readonly hash: string;
  readonly admin: boolean;
  readonly privileges: Readonly<Record<string, Privilege>>;
}

export interface ContinuousQueryInfo {
  readonly name: string;
  readonly database: string;
  readonly queryText: string;
  readonly resampleEverySec: number;
  readonly resampleForSec: number;
  /**
   * Which RESAMPLE parts the statement named: 1.x shows the statement as written, so an EVERY
   * or FOR equal to the GROUP BY interval is still printed. Absent in catalogs written before.
   */
  readonly resampleGiven?: { readonly every: boolean; readonly for: boolean };
  readonly createdAt: string;
}

export interface MaterializedViewInfo {
  readonly name: string;
  readonly database: string;
  readonly queryText: string;
  readonly target: string;
  readonly createdAt: string;
}

/**
 * A persisted delete (DELETE, DROP SERIES/MEASUREMENT/DATABASE, retention trim). It hides
 * rows written before it: cached rows with WAL seq <= `seq` (replay) and rows of TSM files
 * whose generation is below the shard's mark. Times are ns as decimal strings (int64).
 */
export interface TombstoneInfo {
  readonly id: string;
  readonly database: string;
  /** Undefined: every retention policy. */
  readonly retentionPolicy?: string;
  /** Null: every measurement. */
  readonly measurements: readonly string[] | null;
  /** TagExpr (engine/series/tag-expr.ts) as JSON. */
  readonly predicate: unknown;
  readonly minNs: string;
  readonly maxNs: string;
  readonly seq: string;
  /** Shard directory → first TSM generation NOT affected. */
  readonly marks: Readonly<Record<string, number>>;
  readonly createdAt: string;
}

export interface CatalogData {
  readonly databases: readonly DatabaseInfo[];
  readonly users: readonly UserInfo[];
  readonly continuousQueries: readonly ContinuousQueryInfo[];
  readonly materializedViews: readonly MaterializedViewInfo[];
  readonly tombstones: readonly TombstoneInfo[];
  /** Monotonic id source for shards and other numbered things. */
  readonly nextId: number;
}

export const EMPTY_CATALOG: CatalogData = {
  databases: [],
  users: [],
  continuousQueries: [],
  materializedViews: [],
  tombstones: [],
  nextId: 1,
};

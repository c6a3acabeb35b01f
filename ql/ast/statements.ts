/**
 * Statement nodes of the TimeseriesQL AST (readonly, discriminated on `kind`). Every statement of
 * the spec's TimeseriesQL section plus the 1.x statements clients rely on. Optional names are ''
 * when absent (as in 1.x); optional numbers are null when absent.
 */
import type { Expr, RegexLit, SelectStatement, SortField, Source } from './nodes.js';

export type { SelectStatement } from './nodes.js';

/** ORDER BY / LIMIT / OFFSET shared by the SHOW statements that take them. */
interface Paging {
  readonly sortFields: readonly SortField[];
  readonly limit: number;
  readonly offset: number;
}

/** Filters shared by the metadata SHOW statements. */
interface MetaFilter {
  /** `ON db`; '' = the request's database. */
  readonly database: string;
  /** `FROM ...`; empty = every measurement. */
  readonly sources: readonly Source[];
  readonly condition: Expr | null;
}

/** `WITH KEY = k | != k | =~ /re/ | !~ /re/ | IN (k1, k2)`. */
export type TagKeyFilter =
  | { readonly op: '=' | '!='; readonly key: string }
  | { readonly op: '=~' | '!~'; readonly regex: RegexLit }
  | { readonly op: 'IN'; readonly keys: readonly string[] };

export type Privilege = 'READ' | 'WRITE' | 'ALL';

export interface DeleteStatement { readonly kind: 'Delete'; readonly sources: readonly Source[]; readonly condition: Expr | null }
export interface DropSeriesStatement { readonly kind: 'DropSeries'; readonly sources: readonly Source[]; readonly condition: Expr | null }
export interface DropMeasurementStatement { readonly kind: 'DropMeasurement'; readonly name: string }
export interface DropShardStatement { readonly kind: 'DropShard'; readonly id: bigint }

export interface ShowDatabasesStatement { readonly kind: 'ShowDatabases' }
export interface ShowMeasurementsStatement extends Paging {
  readonly kind: 'ShowMeasurements';
  readonly database: string;
  /** `WITH MEASUREMENT = name` or `=~ /re/`. */
  readonly source: Source | null;
  readonly condition: Expr | null;
}
export interface ShowTagKeysStatement extends Paging, MetaFilter {
  readonly kind: 'ShowTagKeys';
  readonly slimit: number;
  readonly soffset: number;
}
export interface ShowTagValuesStatement extends Paging, MetaFilter {
  readonly kind: 'ShowTagValues';
  readonly tagKey: TagKeyFilter;
}
export interface ShowFieldKeysStatement extends Paging {
  readonly kind: 'ShowFieldKeys';
  readonly database: string;
  readonly sources: readonly Source[];
}
export interface ShowSeriesStatement extends Paging, MetaFilter { readonly kind: 'ShowSeries' }

/** SHOW SERIES / MEASUREMENT / TAG KEY / TAG VALUES / FIELD KEY [EXACT] CARDINALITY. */
export interface ShowCardinalityStatement extends MetaFilter {
  readonly kind: 'ShowCardinality';
  readonly of: 'series' | 'measurement' | 'tagKey' | 'tagValues' | 'fieldKey';
  readonly exact: boolean;
  /** Only for `of: 'tagValues'`. */
  readonly tagKey: TagKeyFilter | null;
  readonly dimensions: readonly Expr[];
  readonly limit: number;
  readonly offset: number;
}

export interface ShowRetentionPoliciesStatement { readonly kind: 'ShowRetentionPolicies'; readonly database: string }
export interface ShowUsersStatement { readonly kind: 'ShowUsers' }
/** `SHOW GRANTS [FOR user]`; '' = the current user. */
export interface ShowGrantsStatement { readonly kind: 'ShowGrants'; readonly user: string }
export interface ShowContinuousQueriesStatement { readonly kind: 'ShowContinuousQueries' }
export interface ShowMaterializedViewsStatement { readonly kind: 'ShowMaterializedViews'; readonly database: string }
export interface ShowQueriesStatement { readonly kind: 'ShowQueries' }
export interface ShowShardsStatement { readonly kind: 'ShowShards' }
export interface ShowShardGroupsStatement { readonly kind: 'ShowShardGroups' }
export interface ShowStatsStatement { readonly kind: 'ShowStats'; readonly module: string }
export interface ShowDiagnosticsStatement { readonly kind: 'ShowDiagnostics'; readonly module: string }
export interface ShowSubscriptionsStatement { readonly kind: 'ShowSubscriptions' }

/** Retention policy created together with a database (`WITH DURATION ... NAME ...`). */
export interface DatabaseRetentionPolicy {
  readonly duration: bigint | null;
  readonly replication: number | null;
  readonly shardDuration: bigint | null;
  readonly name: string;
}
export interface CreateDatabaseStatement {
  readonly kind: 'CreateDatabase';
  readonly name: string;
  readonly retentionPolicy: DatabaseRetentionPolicy | null;
}
export interface DropDatabaseStatement { readonly kind: 'DropDatabase'; readonly name: string }

/** Durations in ns; 0n = INF (as 1.x). */
export interface CreateRetentionPolicyStatement {
  readonly kind: 'CreateRetentionPolicy';
  readonly name: string;
  readonly database: string;
  readonly duration: bigint;
  readonly replication: number;
  /** 0n = let the server choose. */
  readonly shardDuration: bigint;
  readonly isDefault: boolean;
}
export interface AlterRetentionPolicyStatement {
  readonly kind: 'AlterRetentionPolicy';
  readonly name: string;
  readonly database: string;
  readonly duration: bigint | null;
  readonly replication: number | null;
  readonly shardDuration: bigint | null;
  readonly isDefault: boolean;
}
export interface DropRetentionPolicyStatement { readonly kind: 'DropRetentionPolicy'; readonly name: string; readonly database: string }

export interface CreateUserStatement { readonly kind: 'CreateUser'; readonly name: string; readonly password: string; readonly admin: boolean }
export interface DropUserStatement { readonly kind: 'DropUser'; readonly name: string }
export interface SetPasswordStatement { readonly kind: 'SetPassword'; readonly name: string; readonly password: string }
/** `GRANT priv ON db TO user`; `database === null` is `GRANT ALL [PRIVILEGES] TO user` (admin). */
export interface GrantStatement { readonly kind: 'Grant'; readonly privilege: Privilege; readonly database: string | null; readonly user: string }
export interface RevokeStatement { readonly kind: 'Revoke'; readonly privilege: Privilege; readonly database: string | null; readonly user: string }

export interface CreateContinuousQueryStatement {
  readonly kind: 'CreateContinuousQuery';
  readonly name: string;
  readonly database: string;
  /** RESAMPLE EVERY / FOR in ns; null when not given. */
  readonly resampleEvery: bigint | null;
  readonly resampleFor: bigint | null;
  readonly source: SelectStatement;
}
export interface DropContinuousQueryStatement { readonly kind: 'DropContinuousQuery'; readonly name: string; readonly database: string }

export interface CreateMaterializedViewStatement {
  readonly kind: 'CreateMaterializedView';
  readonly name: string;
  readonly database: string;
  readonly source: SelectStatement;
  readonly backfill: boolean;
}
export interface DropMaterializedViewStatement { readonly kind: 'DropMaterializedView'; readonly name: string; readonly database: string }

export interface CreateSubscriptionStatement {
  readonly kind: 'CreateSubscription';
  readonly name: string;
  readonly database: string;
  readonly retentionPolicy: string;
  readonly mode: 'ALL' | 'ANY';
  readonly destinations: readonly string[];
}
export interface DropSubscriptionStatement {
  readonly kind: 'DropSubscription';
  readonly name: string;
  readonly database: string;
  readonly retentionPolicy: string;
}

export interface KillQueryStatement { readonly kind: 'KillQuery'; readonly queryId: bigint; readonly host: string }
export interface ExplainStatement { readonly kind: 'Explain'; readonly analyze: boolean; readonly verbose: boolean; readonly statement: SelectStatement }

export type Statement =
  | SelectStatement
  | DeleteStatement | DropSeriesStatement | DropMeasurementStatement | DropShardStatement
  | ShowDatabasesStatement | ShowMeasurementsStatement | ShowTagKeysStatement | ShowTagValuesStatement
  | ShowFieldKeysStatement | ShowSeriesStatement | ShowCardinalityStatement | ShowRetentionPoliciesStatement
  | ShowUsersStatement | ShowGrantsStatement | ShowContinuousQueriesStatement | ShowMaterializedViewsStatement
  | ShowQueriesStatement | ShowShardsStatement | ShowShardGroupsStatement | ShowStatsStatement
  | ShowDiagnosticsStatement | ShowSubscriptionsStatement
  | CreateDatabaseStatement | DropDatabaseStatement
  | CreateRetentionPolicyStatement | AlterRetentionPolicyStatement | DropRetentionPolicyStatement
  | CreateUserStatement | DropUserStatement | SetPasswordStatement | GrantStatement | RevokeStatement
  | CreateContinuousQueryStatement | DropContinuousQueryStatement
  | CreateMaterializedViewStatement | DropMaterializedViewStatement
  | CreateSubscriptionStatement | DropSubscriptionStatement
  | KillQueryStatement | ExplainStatement;

export type StatementKind = Statement['kind'];

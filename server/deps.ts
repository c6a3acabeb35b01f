/**
 * What the HTTP layer needs from the rest of the process. The composition root (cli/serve.ts)
 * implements it on top of the storage engine; server tests implement it with a recorder.
 *
 * Contract for the engine side:
 * - `write` resolves only after the points are appended to the WAL and fsynced (→ 204). The
 *   body's memory is reused for later requests once the returned promise settles: keep a copy
 *   of anything kept beyond that.
 *   It rejects with StrataError subclasses from engine/index.ts:
 *   DatabaseNotFoundError (404; the write route renders `database not found: "x"`),
 *   RetentionPolicyNotFoundError (404), a partial-write error with status 400 or 422 whose
 *   message is the full 1.x text (`partial write: ... dropped=N`, `unable to parse ...`),
 *   FieldTypeConflictError (400), CardinalityLimitError (422), EngineClosedError (503),
 *   ReadOnlyError (507), StorageIoError (500). Anything else becomes a logged 500.
 * - `state` is read on every request (no caching): `readOnly` (disk protection) turns /write
 *   into 507 and /health into 503; `stopping` turns /write and /health into 503.
 * - `ready` answers the readiness probe (/health/ready); later it runs a trivial query.
 */
import type { Precision } from '../engine/index.js';
import type { QueryRegistry, QueryUser, SeriesSink, Statement, StatementResult, StopSignal } from '../ql/index.js';
import type { UserDirectory } from './auth/verifier.js';
import type { ServiceMetrics } from './metrics/registry.js';

export type { Precision };

export interface WriteRequest {
  readonly db: string;
  /** Absent means the database's default retention policy. */
  readonly rp?: string;
  readonly precision: Precision;
  /** Line protocol, already decompressed. Owned by the callee after the call. */
  readonly body: Uint8Array;
}

export interface NodeState {
  readonly readOnly: boolean;
  readonly stopping: boolean;
}

export interface QueryRunRequest {
  readonly statements: readonly Statement[];
  /** `db` parameter ('' when absent). */
  readonly db: string;
  /** `rp` parameter ('' when absent). */
  readonly rp: string;
  /** Aborted on timeout, KILL QUERY or client disconnect. */
  readonly signal: StopSignal;
  /** The authenticated user (QueryContext.user); undefined when auth is off. [auth] */
  readonly user?: QueryUser | undefined;
  /** Chunked responses: per-statement streaming sink. */
  readonly sinkFor?: (statementId: number) => SeriesSink;
}

export interface ServerDeps {
  /** Resolves with the number of points stored (service_ingestion_points_total). */
  write(req: WriteRequest): Promise<number>;
  /** Run parsed statements; each result is also handed to `onResult` as soon as it is ready. */
  query(req: QueryRunRequest, onResult?: (r: StatementResult) => void | Promise<void>): Promise<StatementResult[]>;
  /** For the request-level 404 of /query (decisions.md "missing database"). */
  databaseExists(name: string): boolean;
  /** A database's default retention policy, '' when it has none or does not exist (1.x's statement texts). */
  defaultRetentionPolicy(database: string): string;
  readonly state: NodeState;
  ready(): Promise<boolean>;
  /** Users for authentication (engine.catalog); required when auth.enabled. [auth] */
  readonly users?: UserDirectory;
  /**
   * Running queries (SHOW QUERIES / KILL QUERY); the same registry must be in the executor's
   * QueryContext. Absent: the server keeps its own (limits still apply, nothing is listed). [auth]
   */
  readonly queries?: QueryRegistry;
  /**
   * [ops] The process's metrics registry, when the composition root feeds it (flushes, disk
   * monitor, WAL sequence). Absent: startServer creates one with only the HTTP-side values.
   */
  readonly metrics?: ServiceMetrics;
}

/**
 * Typed engine errors. Each carries a stable `code` and the HTTP `status` it maps to;
 * server/http/errors.ts is the only place that turns them into responses.
 */
export class StrataError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A broken internal invariant: always a bug, never bad input. */
export class InvariantError extends StrataError {
  constructor(message: string) {
    super('invariant', 500, `BUG: ${message}`);
  }
}

/** On-disk data failed a checksum or structural check. `file`/`offset` locate the damage. */
export class CorruptionError extends StrataError {
  constructor(
    readonly file: string,
    readonly offset: number,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super('corruption', 500, `corruption in ${file} at offset ${offset}: ${reason}`, options);
  }
}

/** An I/O operation failed (disk full, permission, EIO). */
export class StorageIoError extends StrataError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('storage_io', 500, message, options);
  }

  /**
   * `err` as an error saying what failed (`what` names the file) and why (its errno text): node's
   * errors from a file handle (read, fdatasync, ftruncate) name no path, and start-up prints only
   * the message. Typed errors pass unchanged: they carry their own context.
   */
  static wrap(what: string, err: unknown): StrataError {
    if (err instanceof StrataError) return err;
    return new StorageIoError(`${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

export class DatabaseNotFoundError extends StrataError {
  constructor(readonly database: string) {
    super('database_not_found', 404, `database not found: ${database}`);
  }
}

export class RetentionPolicyNotFoundError extends StrataError {
  constructor(readonly retentionPolicy: string) {
    super('retention_policy_not_found', 404, `retention policy not found: ${retentionPolicy}`);
  }
}

/** A field was written with a type other than the one registered first (InfluxDB 1.x text). */
export class FieldTypeConflictError extends StrataError {
  constructor(
    readonly measurement: string,
    readonly field: string,
    readonly written: string,
    readonly existing: string,
  ) {
    super(
      'field_type_conflict',
      400,
      `field type conflict: input field "${field}" on measurement "${measurement}" is type ${written}, already exists as type ${existing}`,
    );
  }
}

/** Tag-value or measurement cardinality limit reached (spec: 422). */
export class CardinalityLimitError extends StrataError {
  constructor(message: string) {
    super('cardinality_limit', 422, message);
  }
}

/** The engine is closing or closed; requests should be retried elsewhere (503). */
export class EngineClosedError extends StrataError {
  constructor() {
    super('engine_closed', 503, 'engine is shutting down');
  }
}

/** Disk protection put the node into read-only mode (507 on /write). */
export class ReadOnlyError extends StrataError {
  constructor(message = 'insufficient storage: node is in read-only mode') {
    super('read_only', 507, message);
  }
}

/** A bad request to the engine API itself (bad names, bad ranges). */
export class InvalidRequestError extends StrataError {
  constructor(message: string) {
    super('invalid_request', 400, message);
  }
}

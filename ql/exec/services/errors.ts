/** Shared types of the background query services (continuous queries, materialized views): runs and errors. */
import { StrataError } from '../../../engine/index.js';

/** One execution of a stored query (a continuous query's window, a view's dirty windows). */
export interface ServiceRun {
  readonly database: string;
  readonly name: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly written: number;
  readonly error?: string;
}

/** A stored definition that cannot be run (logged and counted; never reaches a client). */
export class ServiceError extends StrataError {
  constructor(message: string) {
    super('service_error', 500, message);
  }
}

/** A raw (non-aggregate) definition without GROUP BY time: 1.x accepts it and never runs it. */
export class NoIntervalError extends ServiceError {}

/**
 * A direct write (line protocol or a user's SELECT ... INTO) to the target measurement of a
 * materialized view: the view owns it. 400, shaped like the 1.x partial-write texts.
 */
export class ViewTargetWriteError extends StrataError {
  constructor(
    readonly database: string,
    readonly measurement: string,
    readonly view: string,
  ) {
    super('view_target_write', 400, `measurement "${measurement}" is maintained by materialized view "${view}" and cannot be written directly`);
  }
}

/**
 * Errors of metadata statements. The message is the 1.x per-statement error text (clients show
 * it verbatim); the HTTP layer reports it in the statement's `error` with status 200.
 */
import { QueryError } from '../errors.js';

export class MetaError extends QueryError {
  constructor(message: string, code = 'meta_error') {
    super(message, code);
  }
}

/**
 * An error 1.x raises while rewriting a SHOW statement into the one it runs (SHOW MEASUREMENTS
 * or a cardinality with a time condition), before the statement has its id: the result says
 * statement 0 (server/format/merge-results.ts shows what that does to a batch).
 */
export class RewriteError extends MetaError {
  readonly statementIdZero = true;
}

export const databaseRequired = (): MetaError => new MetaError('database name required', 'database_required');
export const invalidTagComparison = (): MetaError => new MetaError('invalid tag comparison operator', 'invalid_tag_comparison');
export const userNotFound = (): MetaError => new MetaError('user not found', 'user_not_found');

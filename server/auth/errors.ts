/** Authentication (401) and authorization (403) errors with the 1.x texts (clients.md item 10). */
import { StrataError } from '../../engine/index.js';

/** Missing, malformed or wrong credentials. */
export class UnauthorizedError extends StrataError {
  constructor(message: string) {
    super('unauthorized', 401, message);
  }
}

/** Valid credentials, but not allowed to do this. */
export class ForbiddenError extends StrataError {
  constructor(message: string) {
    super('forbidden', 403, message);
  }
}

export const NO_CREDENTIALS = 'unable to parse authentication credentials';
export const BAD_CREDENTIALS = 'authorization failed';
export const USERNAME_REQUIRED = 'username required';
export const ADMIN_REQUIRED = 'admin privileges required for internal routes';
export const CREATE_ADMIN_FIRST = 'error authorizing query: create admin user first or disable authentication';

/** Authentication is enabled but the server was given no user directory (a wiring bug). */
export class AuthSetupError extends StrataError {
  constructor(message: string) {
    super('auth_setup', 500, message);
  }
}

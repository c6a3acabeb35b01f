/**
 * Credential extraction (spec "Authentication → Sending credentials"; first successful
 * extraction wins):
 * 1. query parameters `u` and `p` (both non-empty, URL only, never a form body), honoured only
 *    when `auth.allow_query_param_credentials` is true (decisions.md);
 * 2. `Authorization: Basic <base64(username:password)>` (the password may contain colons);
 * 3. `Authorization: Token <username>:<password>` (1.8 style; a single colon separates them).
 * Scheme names are case-insensitive (RFC 7235). A malformed header counts as no credentials.
 */
import type { QueryParams } from '../http/query.js';

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

function basic(value: string): Credentials | undefined {
  const text = Buffer.from(value, 'base64').toString('utf8');
  // Buffer.from ignores invalid characters: insist on a canonical encoding.
  if (Buffer.from(text, 'utf8').toString('base64').replace(/=+$/, '') !== value.replace(/=+$/, '')) return undefined;
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

function token(value: string): Credentials | undefined {
  const parts = value.split(':');
  if (parts.length !== 2) return undefined;
  const [username, password] = parts as [string, string];
  return { username, password };
}

export function extractCredentials(
  params: QueryParams,
  authorization: string,
  allowQueryParams: boolean,
): Credentials | undefined {
  if (allowQueryParams) {
    const username = params.get('u') ?? '';
    const password = params.get('p') ?? '';
    if (username !== '' && password !== '') return { username, password };
  }
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization);
  if (!m) return undefined;
  const scheme = m[1]!.toLowerCase();
  if (scheme === 'basic') return basic(m[2]!);
  if (scheme === 'token') return token(m[2]!);
  return undefined;
}

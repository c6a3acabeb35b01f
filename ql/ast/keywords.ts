/**
 * The InfluxQL 1.x keyword set (influxql/token.go). A bare word in this set is a keyword token, never
 * an identifier: `name`, `field`, `key`, `select` must be double-quoted to be used as identifiers.
 * Strata's own words (MATERIALIZED, VIEW, VIEWS, BACKFILL, NOT, VERBOSE) are contextual and stay
 * usable as bare identifiers, so existing 1.x queries keep working.
 */
const WORDS = [
  'all', 'alter', 'analyze', 'any', 'as', 'asc', 'begin', 'by', 'cardinality', 'create', 'continuous',
  'database', 'databases', 'default', 'delete', 'desc', 'destinations', 'diagnostics', 'distinct',
  'drop', 'duration', 'end', 'every', 'exact', 'explain', 'field', 'for', 'from', 'grant', 'grants',
  'group', 'groups', 'inf', 'insert', 'into', 'key', 'keys', 'kill', 'limit', 'measurement',
  'measurements', 'name', 'offset', 'on', 'order', 'password', 'policy', 'policies', 'privileges',
  'queries', 'query', 'read', 'replication', 'resample', 'retention', 'revoke', 'select', 'series',
  'set', 'show', 'shard', 'shards', 'slimit', 'soffset', 'stats', 'subscription', 'subscriptions',
  'tag', 'to', 'user', 'users', 'values', 'where', 'with', 'write',
  // operators spelled as words, and the boolean literals
  'and', 'or', 'in', 'true', 'false',
] as const;

const KEYWORDS: ReadonlySet<string> = new Set<string>(WORDS);

/** True when `word` (any case) is a reserved keyword. */
export function isKeyword(word: string): boolean {
  return KEYWORDS.has(word.toLowerCase());
}

const BARE_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * 1.x IdentNeedsQuotes: keywords and anything outside [A-Za-z_][A-Za-z0-9_]* need double quotes.
 * Strata also quotes `not`, which would otherwise read as the NOT operator before an operand.
 */
export function identNeedsQuotes(ident: string): boolean {
  return !BARE_IDENT.test(ident) || isKeyword(ident) || ident.toLowerCase() === 'not';
}

/** Double-quote an identifier with 1.x escapes (\n, \\, \"). */
export function quoteIdentAlways(ident: string): string {
  return '"' + ident.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : '\\' + c)) + '"';
}

/** 1.x QuoteIdent for one segment: quoted only when needed. */
export function quoteIdent(ident: string): string {
  return identNeedsQuotes(ident) ? quoteIdentAlways(ident) : ident;
}

/** 1.x QuoteString: single quotes with \n, \\ and \' escaped. */
export function quoteString(s: string): string {
  return "'" + s.replace(/[\\'\n]/g, (c) => (c === '\n' ? '\\n' : '\\' + c)) + "'";
}

/**
 * A bounded memo of parseQuery() for GET /query: a dashboard or a benchmark sends the same
 * query string over and over, and decoding its long URL-encoded `q` was a tenth of a small
 * query's time in the handler. Callers get the shared map read-only (QueryParams).
 *
 * As with the statement parse cache (ql/parser/parse-cache.ts), nothing secret is kept: a
 * query string with a `p` parameter (1.x credentials) or with "password" anywhere in its
 * decoded values (CREATE USER, SET PASSWORD) is parsed every time, and so are strings longer
 * than MAX_CACHED_QUERY_STRING. Least recently used entries go first.
 */
import { LruMap } from '../../engine/index.js';
import { parseQuery, type QueryParams } from './query.js';

/** Longer query strings are parsed every time (bounds the memory held to entries x this). */
export const MAX_CACHED_QUERY_STRING = 8192;

export class QueryStringCache {
  readonly #entries: LruMap<string, QueryParams>;

  constructor(readonly maxEntries: number) {
    this.#entries = new LruMap(maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  parse(raw: string | undefined): QueryParams {
    if (!raw || raw.length > MAX_CACHED_QUERY_STRING || this.maxEntries <= 0) return parseQuery(raw);
    const hit = this.#entries.get(raw);
    if (hit !== undefined) return hit;
    const params = parseQuery(raw);
    if (params.has('p') || [...params.values()].some((v) => /password/i.test(v))) return params;
    this.#entries.set(raw, params);
    return params;
  }
}

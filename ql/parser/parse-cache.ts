/**
 * A bounded memo of parseQuery() for the /query hot path. Dashboards and benchmarks send the
 * same texts over and over, and the Parsimmon parse of even a short SELECT costs a good part of
 * a small query's latency; the AST is plain immutable data (readonly nodes, no RegExp objects,
 * evaluation caches are WeakMaps keyed by node), so one parse can serve every request with the
 * same text.
 *
 * Only texts parsed without bound parameters are kept (with parameters the AST depends on their
 * values), texts longer than MAX_CACHED_TEXT are never kept, parse errors are never kept
 * (they throw each time, as before), and statements carrying a password (CREATE USER, SET
 * PASSWORD) are never kept, so no password outlives its request. Least recently used entries
 * go first.
 *
 * A text missing here is parsed through a cache of shapes (./shape-cache.ts): the same statement
 * with other literal values is rebound from an earlier parse instead of parsed again.
 */
import { LruMap } from '../../engine/index.js';
import type { Statement } from '../ast/statements.js';
import type { Params } from './params.js';
import { parseQuery } from './query.js';
import { ShapeCache } from './shape-cache.js';

/** Longer texts are parsed every time (bounds the memory the cache holds to entries x this). */
export const MAX_CACHED_TEXT = 8192;

export class ParseCache {
  readonly #entries: LruMap<string, readonly Statement[]>;
  readonly #shapes: ShapeCache;

  constructor(readonly maxEntries: number) {
    this.#entries = new LruMap(maxEntries);
    this.#shapes = new ShapeCache(maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** parseQuery(text, params), from the cache when it can be; the array is the caller's to keep. */
  parse(text: string, params?: Params): Statement[] {
    if (params !== undefined || text.length > MAX_CACHED_TEXT || this.maxEntries <= 0) return parseQuery(text, params);
    const hit = this.#entries.get(text);
    if (hit !== undefined) return [...hit];
    const parsed = this.#shapes.parse(text);
    if (parsed.some((st) => 'password' in st)) return parsed;
    this.#entries.set(text, Object.freeze([...parsed]));
    return parsed;
  }
}

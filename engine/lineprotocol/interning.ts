/**
 * Strings and tags that outlive a request: detached copies and bounded intern tables.
 *
 * Why: V8 keeps a slice of 13+ characters as a view that pins its parent, here a whole
 * request body, so anything the parser hands out or caches is copied out first. And cached
 * series repeat most of their tags (`region=eu-west-1` on thousands of hosts), so tag keys,
 * measurement names and whole Tag objects are shared: a cached TSBS key costs about a third
 * of the memory it would with per-series copies. Tables are cleared wholesale when full; a
 * cleared entry only costs a new copy later, never a wrong result.
 */
import type { Tag } from '../point.js';

const LIMIT = 100_000;

/**
 * A flat copy of `s` sharing no memory with the string it was sliced from. Made through a
 * Buffer, which yields a sequential string (fast to hash and compare later); for cache misses.
 */
export function detach(s: string): string {
  if (s.length < 13) return s;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0xff) return Buffer.from(s, 'utf16le').toString('utf16le');
  }
  return Buffer.from(s, 'latin1').toString('latin1');
}

/**
 * A cheaper detached copy, for per-value use: slicing a concatenation makes V8 flatten it
 * into a new string, and the slice then points into that copy instead of the request body.
 */
export function detachValue(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

const names = new Map<string, string>();

/** One shared, detached string per distinct name (field keys, tag keys, measurements). */
export function internName(s: string): string {
  let v = names.get(s);
  if (v === undefined) {
    if (names.size >= LIMIT) names.clear();
    v = detach(s);
    names.set(v, v);
  }
  return v;
}

const tags = new Map<string, Tag>();

/** The shared Tag for a raw `key=value` text, if one was made. */
export function sharedTag(rawPair: string): Tag | undefined {
  return tags.get(rawPair);
}

/** Makes the shared Tag for `rawPair` from its unescaped key and value. */
export function addSharedTag(rawPair: string, key: string, value: string): Tag {
  if (tags.size >= LIMIT) tags.clear();
  const t: Tag = { key: internName(key), value: detachValue(value) };
  tags.set(detachValue(rawPair), t);
  return t;
}

/** Empties every table (tests, memory pressure). */
export function clearInterned(): void {
  names.clear();
  tags.clear();
}

/**
 * Canonical series keys and the escaping rules of InfluxDB 1.x line protocol.
 *
 * Which characters take a backslash depends on the element (1.x docs, models/points.go):
 *   measurement        `,` and space
 *   tag key / value    `,` `=` and space
 *   field key          `,` `=` space and `"`
 *   string field value `"` and `\` (inside double quotes)
 * A backslash before any other character is literal, so `a\b` stays `a\b`. Unescaping is a
 * single left-to-right pass, which makes it the exact inverse of escaping.
 *
 * Known 1.x limitation kept on purpose: a name ending in a backslash cannot be written (the
 * backslash would escape the separator that follows it), and in field keys a backslash
 * directly before an escaped character is ambiguous, because the 1.x field scanner skips any
 * `\x` pair.
 * A measurement written with a backslash left before one of `,` space `=` `"` after
 * unescaping (`a\\,b`) is keyed and listed as 1.x does, under other names (key.ts
 * measurementNames, pointName below).
 *
 * The canonical key is `escape(measurement)` followed by `,key=value` for each tag sorted by
 * key in UTF-8 byte order, so equal series always give byte-identical keys.
 */
import type { Tag } from '../point.js';
import { LineProtocolError } from './errors.js';

const BACKSLASH = 0x5c;

// Bit masks over char codes 0x20..0x3f: space (0x20), `"` (0x22), `,` (0x2c), `=` (0x3d).
const SPACE = 1 << 0;
const QUOTE = 1 << 2;
const COMMA = 1 << 12;
const EQUALS = 1 << 29;
export const MEASUREMENT_SPECIALS = SPACE | COMMA;
export const TAG_SPECIALS = SPACE | COMMA | EQUALS;
export const FIELD_KEY_SPECIALS = SPACE | COMMA | EQUALS | QUOTE;
/**
 * What 1.x's parser unescapes in a written measurement name (its escape.Unescape: `\,`, `\ `,
 * `\=` and `\"`), wider than what a series key escapes in it (space and comma).
 */
export const MEASUREMENT_UNESCAPES = SPACE | COMMA | EQUALS | QUOTE;

function isSpecial(c: number, mask: number): boolean {
  return c >= 0x20 && c < 0x40 && (mask & (1 << (c - 0x20))) !== 0;
}

function escapeWith(s: string, mask: number): string {
  let i = 0;
  for (; i < s.length; i++) if (isSpecial(s.charCodeAt(i), mask)) break;
  if (i === s.length) return s;
  let out = s.slice(0, i);
  let from = i;
  for (; i < s.length; i++) {
    if (isSpecial(s.charCodeAt(i), mask)) {
      out += s.slice(from, i) + '\\';
      from = i;
    }
  }
  return out + s.slice(from);
}

/** Unescapes `s[start, end)`: a backslash followed by one of the mask's characters is dropped. */
export function unescapeWith(s: string, start: number, end: number, mask: number): string {
  let out = '';
  let from = start;
  for (let i = start; i < end - 1; i++) {
    if (s.charCodeAt(i) === BACKSLASH && isSpecial(s.charCodeAt(i + 1), mask)) {
      out += s.slice(from, i);
      from = i + 1;
      i++;
    }
  }
  return from === start ? s.slice(start, end) : out + s.slice(from, end);
}

export const escapeMeasurement = (s: string): string => escapeWith(s, MEASUREMENT_SPECIALS);
export const escapeTag = (s: string): string => escapeWith(s, TAG_SPECIALS);
/** Tag keys and tag values share one rule set; the names say which one a caller means. */
export const escapeTagKey = escapeTag;
export const escapeTagValue = escapeTag;
export const escapeFieldKey = (s: string): string => escapeWith(s, FIELD_KEY_SPECIALS);
export const unescapeMeasurement = (s: string): string => unescapeWith(s, 0, s.length, MEASUREMENT_SPECIALS);
export const unescapeTag = (s: string): string => unescapeWith(s, 0, s.length, TAG_SPECIALS);
export const unescapeFieldKey = (s: string): string => unescapeWith(s, 0, s.length, FIELD_KEY_SPECIALS);

/**
 * The measurement 1.x lists for a point it makes from a name (SELECT ... INTO: models.NewPoint
 * keys it with MakeKey, which unescapes `\,` and `\ ` before escaping `,` and space, and the
 * index reads the name back from that key with escape.Unescape): `a\,b` is listed as `a,b`,
 * `e\=f` as `e=f` (probed on 1.6.7). Such a name written as line protocol reads back the same.
 */
export function pointName(name: string): string {
  if (!name.includes('\\')) return name;
  const key = pointKeyMeasurement(name);
  return unescapeWith(key, 0, key.length, MEASUREMENT_UNESCAPES);
}

/** The measurement part of the series key 1.x's MakeKey gives a point's name: `\,` and `\ ` unescaped once more, then `,` and space escaped. */
export function pointKeyMeasurement(name: string): string {
  return escapeMeasurement(unescapeWith(name, 0, name.length, MEASUREMENT_SPECIALS));
}

/** Escapes a string field value for use between double quotes. */
export function escapeStringValue(s: string): string {
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === BACKSLASH) break;
  }
  if (i === s.length) return s;
  return s.replace(/["\\]/g, '\\$&');
}

/** Unescapes the inside of a quoted string value `s[start, end)`: only `\"` and `\\` are escapes. */
export function unescapeStringValue(s: string, start: number, end: number): string {
  let out = '';
  let from = start;
  for (let i = start; i < end - 1; i++) {
    if (s.charCodeAt(i) === BACKSLASH) {
      const n = s.charCodeAt(i + 1);
      if (n === 0x22 || n === BACKSLASH) {
        out += s.slice(from, i);
        from = i + 1;
        i++;
      }
    }
  }
  return from === start ? s.slice(start, end) : out + s.slice(from, end);
}

/**
 * Compares two strings in UTF-8 byte order (= code point order). Plain `<` compares UTF-16
 * code units, which puts U+E000..U+FFFF after astral characters; this corrects that case.
 */
export function compareBytes(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

const byKey = (x: Tag, y: Tag): number => compareBytes(x.key, y.key);

/** Returns the tags sorted by key (the input array itself when already sorted). */
export function sortTags(tags: readonly Tag[]): readonly Tag[] {
  for (let i = 1; i < tags.length; i++) {
    if (byKey(tags[i - 1]!, tags[i]!) > 0) return [...tags].sort(byKey);
  }
  return tags;
}

/**
 * Builds the canonical series key. Tags may come in any order; tags with an empty value are
 * left out, as 1.x does. Duplicate keys are the caller's bug (the parser rejects them).
 */
export function makeSeriesKey(measurement: string, tags: readonly Tag[]): string {
  let key = escapeMeasurement(measurement);
  for (const t of sortTags(tags)) {
    if (t.value.length === 0) continue;
    key += ',' + escapeTag(t.key) + '=' + escapeTag(t.value);
  }
  return key;
}

/**
 * Splits a canonical series key back into measurement and tags (unescaped). A character is
 * escaped when the one before it is a backslash, as the 1.x key scanner decides.
 */
export function parseSeriesKey(key: string): { measurement: string; tags: Tag[] } {
  let i = nextUnescaped(key, 0, 0x2c, -1);
  const measurement = unescapeWith(key, 0, i, MEASUREMENT_SPECIALS);
  const tags: Tag[] = [];
  while (i < key.length) {
    const ks = i + 1;
    const eq = nextUnescaped(key, ks, 0x3d, 0x2c);
    if (eq >= key.length || key.charCodeAt(eq) !== 0x3d || eq === ks) {
      throw new LineProtocolError(`malformed series key: ${key}`);
    }
    i = nextUnescaped(key, eq + 1, 0x2c, -1);
    tags.push({ key: unescapeWith(key, ks, eq, TAG_SPECIALS), value: unescapeWith(key, eq + 1, i, TAG_SPECIALS) });
  }
  return { measurement, tags };
}

/** The escaped measurement at the head of a canonical series key (up to its first unescaped comma). */
export function escapedMeasurementOf(key: string): string {
  return key.slice(0, nextUnescaped(key, 0, 0x2c, -1));
}

/** The measurement of a canonical series key, unescaped. */
export function measurementOfEscaped(escaped: string): string {
  return unescapeWith(escaped, 0, escaped.length, MEASUREMENT_SPECIALS);
}

/** Index of the first `stop` (or `alt`) at or after `from` not preceded by a backslash, else length. */
function nextUnescaped(s: string, from: number, stop: number, alt: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c === stop || c === alt) && (i === 0 || s.charCodeAt(i - 1) !== BACKSLASH)) return i;
  }
  return s.length;
}

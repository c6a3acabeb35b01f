/**
 * Regex matching that cannot stall the server.
 *
 * V8's RegExp backtracks: a pattern with a repeated group or several unbounded repeats
 * (`(a+)+`, `(a|aa)*`, `a*a*a*a*b`) takes exponential or high-polynomial time on a long enough
 * near-miss, and matching runs on the event loop, so one query over a 27-character tag value
 * held every request (writes included) for two seconds, and a few characters more for hours.
 * InfluxDB 1.x matches with Go's RE2, in linear time. Such patterns are matched with re2js
 * instead (a port of Go's regexp: linear time, and Go's own semantics). The rest, with at most
 * one unbounded repeat and no repeated group (nearly every dashboard pattern: `^(a|b)$`,
 * `^host_[0-9]+$`, `cpu.*`), keep V8's engine, many times faster per match and polynomial at worst.
 */
import { RE2JS } from 're2js';

export interface Matcher {
  test(input: string): boolean;
}

const enum C {
  Backslash = 92, LBracket = 91, RBracket = 93, RParen = 41, Star = 42, Plus = 43, LBrace = 123,
}

/**
 * Whether a backtracking engine may take more than quadratic time on `pattern`: a group
 * followed by `*`, `+` or `{`, or more than one unbounded repeat. Escapes and character
 * classes are stepped over (their `*` or `)` are literals).
 */
export function mayBacktrack(pattern: string): boolean {
  let unbounded = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c === C.Backslash) {
      i++;
    } else if (c === C.LBracket) {
      // A class ends at the first `]` that is not its first member (`[]a]`, `[^]a]`) and not escaped.
      let j = i + 1;
      if (pattern.charCodeAt(j) === 94) j++;
      if (pattern.charCodeAt(j) === C.RBracket) j++;
      while (j < pattern.length && pattern.charCodeAt(j) !== C.RBracket) j += pattern.charCodeAt(j) === C.Backslash ? 2 : 1;
      i = j;
    } else if (c === C.RParen) {
      const next = pattern.charCodeAt(i + 1);
      if (next === C.Star || next === C.Plus || next === C.LBrace) return true;
    } else if (c === C.Star || c === C.Plus || (c === C.LBrace && /^\{\d+,\d*\}/.test(pattern.slice(i, i + 24)))) {
      if (++unbounded > 1) return true;
    }
  }
  return false;
}

/** RegExp flags as re2js flags (`u` is how re2js always reads a string; `g`/`y` do not apply to test). */
function re2Flags(flags: string): number {
  let f = 0;
  if (flags.includes('i')) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('s')) f |= RE2JS.DOTALL;
  if (flags.includes('m')) f |= RE2JS.MULTILINE;
  return f;
}

/**
 * A linear-time matcher for `pattern` (RE2 syntax, which is Go's, and for the patterns at issue
 * also JavaScript's) when it may backtrack and re2js compiles it, else undefined: the caller
 * then uses its RegExp.
 */
export function linearMatcher(pattern: string, flags = ''): Matcher | undefined {
  if (!mayBacktrack(pattern)) return undefined;
  try {
    const re = RE2JS.compile(pattern, re2Flags(flags));
    return { test: (input: string) => re.test(input) };
  } catch {
    return undefined;
  }
}

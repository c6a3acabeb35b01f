/**
 * RE2 source → JavaScript RegExp, for consumers of RegexLit (built lazily, cached per source).
 * Handled differences: leading flag groups `(?i)`, `(?s)`, `(?m)` (and combinations) become RegExp
 * flags; `(?P<name>` → `(?<name>`; `\A` → `^`, `\z` → `$` (without the m flag); `\Q...\E` quoting;
 * POSIX classes `[[:alpha:]]`. Not handled (rare in queries): flag groups in the middle of a pattern
 * and `(?U)`. RE2 is linear-time; V8's engine backtracks, so callers matching untrusted patterns
 * against long strings should bound input size.
 */
import { linearMatcher, type Matcher } from '../../engine/index.js';

const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9', graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@[-`{-~', space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, Matcher>();

function translate(source: string): { pattern: string; flags: string } {
  let flags = '';
  let body = source;
  const lead = /^\(\?([imsU]+)\)/.exec(body);
  if (lead) {
    for (const f of lead[1] ?? '') if (f !== 'U' && !flags.includes(f)) flags += f;
    body = body.slice(lead[0].length);
  }
  body = body.replace(/\\Q([\s\S]*?)(?:\\E|$)/g, (_, lit: string) => lit.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'));
  body = body.replace(/\(\?P</g, '(?<');
  body = body.replace(/\\A/g, '^').replace(/\\z/g, flags.includes('m') ? '(?![\\s\\S])' : '$');
  body = body.replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => {
    const cls = POSIX[name];
    return cls === undefined || neg !== '' ? m : cls; // negated POSIX classes are left as written
  });
  return { pattern: body, flags: flags + 'u' };
}

const jsCache = new Map<string, RegExp>();

/** The RegExp equivalent to the RE2 `source` (throws SyntaxError for patterns JS cannot express): what TagExpr carries to the engine. */
export function jsRegex(source: string): RegExp {
  let re = jsCache.get(source);
  if (re === undefined) {
    const { pattern, flags } = translate(source);
    try {
      re = new RegExp(pattern, flags);
    } catch {
      re = new RegExp(pattern, flags.replace('u', ''));
    }
    if (jsCache.size < 10_000) jsCache.set(source, re);
  }
  return re;
}

/**
 * A matcher for the RE2 `source`: re2js (Go's syntax, linear time) when a backtracking engine
 * could stall on it (engine/series/linear-regex.ts), else jsRegex's RegExp (which throws
 * SyntaxError for patterns JS cannot express).
 */
export function compileRegex(source: string): Matcher {
  let re = cache.get(source);
  if (re === undefined) {
    re = linearMatcher(source) ?? jsRegex(source);
    if (cache.size < 10_000) cache.set(source, re);
  }
  return re;
}

/**
 * linear-regex.ts: patterns a backtracking engine could stall on are told apart, matched in
 * linear time, and answer as V8's RegExp answers where V8 finishes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { linearMatcher, mayBacktrack } from './linear-regex.js';
import { compilePattern } from './tag-expr.js';

describe('linear-time regex matching', () => {
  it('tells patterns that may backtrack from those that cannot blow up', () => {
    for (const p of ['^(a+)+$', '(a|aa)*b', 'a*a*b', '(x){2,}', '.*foo.*bar', '^(?:ab|a)+$', 'x+y+']) assert.equal(mayBacktrack(p), true, p);
    for (const p of ['^(a|b)$', '^host_[0-9]+$', 'cpu.*', '[*+)]+', '\\(a\\)*', '^[a-z]{3}$', 'abc', '(a)?b', '^(?:us|eu)-west$']) assert.equal(mayBacktrack(p), false, p);
  });

  // V8 needs about 2^n steps here: 2 s at n = 27, hours at n = 40.
  it('matches a pattern that makes V8 backtrack exponentially without stalling', { timeout: 20_000 }, () => {
    const evil = 'a'.repeat(5000) + 'b';
    assert.equal(linearMatcher('^(a+)+$')!.test(evil), false);
    assert.equal(compilePattern('^(a+)+$').test(evil), false);
    assert.equal(compilePattern('(a|aa)*$', 'i').test(evil), true);
    assert.equal(compilePattern('^(a|aa)*$', 'i').test(evil), false);
  });

  it('answers as RegExp on the patterns it takes', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '(?:a|b)', '(a|ab)', 'a?');
    const quant = fc.constantFrom('', '*', '+', '?', '{1,2}', '{2,}');
    const piece = fc.tuple(atom, quant).map(([a, q]) => a + q);
    const group = fc.array(piece, { minLength: 1, maxLength: 3 }).chain((ps) => fc.constantFrom(`(${ps.join('')})+`, `(?:${ps.join('')})*`, ps.join('')));
    const pattern = fc.tuple(fc.constantFrom('', '^'), fc.array(fc.oneof(piece, group), { minLength: 1, maxLength: 4 }), fc.constantFrom('', '$')).map(([s, ps, e]) => s + ps.join('') + e);
    fc.assert(
      fc.property(pattern, fc.stringMatching(/^[abAB]{0,10}$/), fc.constantFrom('', 'i'), (p, input, flags) => {
        const m = linearMatcher(p, flags);
        if (!m) return;
        assert.equal(m.test(input), new RegExp(p, flags).test(input), `/${p}/${flags} on ${JSON.stringify(input)}`);
      }),
      { numRuns: 3000 },
    );
  });
});

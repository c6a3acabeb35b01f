/**
 * Test support for the shape cache (./shape-cache.ts): texts of one shape with other literal
 * values, for the property tests here and over the random case generators (cli/).
 */
import assert from 'node:assert/strict';
import type { Statement } from '../ast/statements.js';
import { parseQuery } from './query.js';
import { shapeOf, type ShapeCache } from './shape-cache.js';

/** Values per literal token type: escapes, unicode, empty, beyond 2^53, int64/uint64 overflow, bad durations. */
export const LITERAL_VALUES: Readonly<Record<string, readonly string[]>> = {
  STRING: ["''", "'a'", "'host_42'", "'2016-01-01T05:17:00Z'", "'2016-01-01 00:00:00'", "'it\\'s'", "'back\\\\slash'", "'line\\nbreak'", "'say \\\"hi\\\"'", "'東京 😀'", "'µs'", "'now()'", "'UTC'", "'America/New_York'", "'Nowhere/Zone'", "'--'", "'/*'", "';'"],
  INTEGER: ['0', '1', '5', '42', '0007', '9007199254740993', '9223372036854775807', '9223372036854775808', '18446744073709551615', '18446744073709551616', '99999999999999999999999999999'],
  NUMBER: ['0.5', '1.0', '.5', '5.', '90.0', '9007199254740993.5', '1' + '0'.repeat(400) + '.0'],
  DURATIONVAL: ['1s', '1m', '10m', '1h30m', '1u', '1µs', '52w', '1000d', '15251w', '106751d', '5x', '1ns'],
};

export function pick<T>(r: () => number, xs: readonly T[]): T {
  const x = xs[Math.floor(r() * xs.length)];
  if (x === undefined) throw new RangeError('empty choice');
  return x;
}

/** `q` with each literal token replaced, with probability `p`, by another value of its type. */
export function vary(r: () => number, q: string, p: number): string {
  const shape = shapeOf(q);
  if (shape === null) return q;
  let out = '';
  let copied = 0;
  for (const t of shape.literals) {
    const values = LITERAL_VALUES[t.type];
    if (values === undefined || r() >= p) continue;
    out += q.slice(copied, t.start) + pick(r, values);
    copied = t.end;
  }
  return out + q.slice(copied);
}


export type Outcome = { ok: true; value: Statement[] } | { ok: false; error: unknown };

export function outcome(parse: () => Statement[]): Outcome {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The cache's answer for `q` equals a fresh parse's: the same statements, or the same error. */
export function assertSame(cache: ShapeCache, q: string): void {
  const cached = outcome(() => cache.parse(q));
  const fresh = outcome(() => parseQuery(q));
  if (cached.ok && fresh.ok) {
    assert.deepEqual(cached.value, fresh.value, q);
  } else if (!cached.ok && !fresh.ok) {
    assert.equal((cached.error as Error).constructor, (fresh.error as Error).constructor, q);
    assert.equal((cached.error as Error).message, (fresh.error as Error).message, q);
  } else {
    assert.fail(`${cached.ok ? 'cache parsed, fresh parse threw' : 'cache threw, fresh parse did not'}: ${JSON.stringify(q)}`);
  }
}


/**
 * The `precision` parameter of /write (decisions.md "precision / epoch units"): `n`/`ns`,
 * `u`/`us` (microseconds, per spec), `ms`, `s`, `m`, `h`; missing or empty means ns. Anything
 * else is a 400 rather than 1.6.7's silent fallback to ns, which corrupts timestamps unnoticed.
 */
import type { Precision } from '../../engine/index.js';
import { BadRequestError } from '../errors.js';

const PRECISIONS: ReadonlyMap<string, Precision> = new Map<string, Precision>([
  ['', 'ns'],
  ['n', 'ns'],
  ['ns', 'ns'],
  ['u', 'us'],
  ['us', 'us'],
  ['ms', 'ms'],
  ['s', 's'],
  ['m', 'm'],
  ['h', 'h'],
]);

export function parsePrecision(value: string | undefined): Precision {
  const precision = PRECISIONS.get(value ?? '');
  if (precision === undefined) {
    throw new BadRequestError(
      `invalid precision ${JSON.stringify(value)}: expected one of n, ns, u, us, ms, s, m, h`,
    );
  }
  return precision;
}

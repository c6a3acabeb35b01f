/**
 * The `consistency` parameter of /write. A single node has nothing to wait for, so every valid
 * level writes the same way; 1.6.7 still refuses a value that is none of its levels (any case)
 * with 400 `invalid consistency level` — but only once the body has parsed into at least one
 * point: a body whose every line fails to parse answers its parse error instead, and an empty
 * body (no points, no error) the consistency error.
 */
import { parseLineProtocol, type Precision } from '../../engine/index.js';
import { BadRequestError } from '../errors.js';

const LEVELS = new Set(['any', 'one', 'quorum', 'all']);

/** True when the `consistency` parameter is absent, empty or one of 1.x's levels. */
export function validConsistency(value: string | undefined): boolean {
  return value === undefined || value === '' || LEVELS.has(value.toLowerCase());
}

/**
 * For a request whose `consistency` is invalid: the error 1.6.7 answers before writing, or
 * undefined when the body's parse error must answer instead (every line malformed). Lines the
 * parser refuses only for a `time` key are well-formed points to 1.x's parser. Runs a parse of
 * its own: this is the path of a misconfigured client only.
 */
export function consistencyError(body: Uint8Array, precision: Precision): BadRequestError | undefined {
  const { points, errors } = parseLineProtocol(body, { precision, defaultSec: 0, defaultNsec: 0 });
  const malformedOnly = points.length === 0 && errors.length > 0 && errors.every((e) => e.refused === undefined);
  return malformedOnly ? undefined : new BadRequestError('invalid consistency level');
}

/**
 * Bound parameters (`$name`, values from the HTTP `params` JSON). As in 1.x the scanner replaces a
 * `$name` token by the token its value stands for, so a parameter works wherever that token does
 * (`WHERE host = $h`, `LIMIT $n`, `WITH PASSWORD $pw`). A `$name` without a value stays a
 * BOUNDPARAM token; in an expression it is the error `missing parameter: name`.
 *
 * The bindings of the parse in progress are module state: parsing is synchronous, and
 * withParams() restores the previous bindings on every exit path.
 */
import { plainFloat } from '../ast/format.js';
import { QueryError } from '../errors.js';
import type { Token } from './scanner.js';

/**
 * A parameter value. JSON numbers follow 1.x: with a `.` (or exponent) a float, otherwise an int64;
 * parseParams() keeps that distinction, which a JS `number` loses. Objects name the token type
 * explicitly, like 1.x's `{"identifier": "cpu"}`.
 */
export type ParamValue =
  | string
  | boolean
  | number
  | bigint
  | { readonly float: number }
  | { readonly integer: bigint }
  | { readonly identifier: string };

export type Params = Readonly<Record<string, ParamValue>>;

let current: Params | null = null;
let version = 0;

/** Changes whenever the bindings change (token caches key on it). */
export function paramsVersion(): number {
  return version;
}

/** Runs `fn` with `params` bound (nested calls restore the outer bindings). */
export function withParams<T>(params: Params | undefined, fn: () => T): T {
  const saved = current;
  current = params ?? null;
  version++;
  try {
    return fn();
  } finally {
    current = saved;
    version++;
  }
}

function tokenFor(v: ParamValue, at: Token): Token {
  const t = (type: Token['type'], lit: string): Token => ({ type, lit, start: at.start, end: at.end, quoted: at.quoted });
  if (typeof v === 'string') return t('STRING', v);
  if (typeof v === 'boolean') return t(v ? 'TRUE' : 'FALSE', v ? 'true' : 'false');
  if (typeof v === 'bigint') return t('INTEGER', v.toString());
  if (typeof v === 'number') {
    return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? t('INTEGER', BigInt(v).toString()) : t('NUMBER', plainFloat(v));
  }
  if ('float' in v) return t('NUMBER', plainFloat(v.float));
  if ('integer' in v) return t('INTEGER', v.integer.toString());
  return t('IDENT', v.identifier);
}

/** The token a BOUNDPARAM stands for, or the BOUNDPARAM itself when no value is bound. */
export function boundToken(t: Token): Token {
  if (current === null || t.lit === '' || !Object.hasOwn(current, t.lit)) return t;
  const v = current[t.lit];
  return v === undefined ? t : tokenFor(v, t);
}

/**
 * Parses the HTTP `params` JSON object, keeping 1.x's number rule: a number written with `.`,
 * `e` or `E` is a float, any other an int64 (exact beyond 2^53). Nested arrays/objects other than the
 * typed forms are rejected.
 */
export function parseParams(json: string): Params {
  // Wrap every number token (outside strings) in a marker string so JSON.parse keeps its text.
  const marked = json.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (tok) =>
    tok.startsWith('"') ? tok : `"\\u0000${tok}"`,
  );
  let raw: unknown;
  try {
    raw = JSON.parse(marked);
  } catch (e) {
    throw new QueryError(`error parsing query parameters: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new QueryError('error parsing query parameters: params must be a JSON object');
  }
  const out: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(raw)) {
    const value = toParam(v);
    if (value === undefined) throw new QueryError(`error parsing query parameters: unsupported value for ${k}`);
    out[k] = value;
  }
  return out;
}

function toParam(v: unknown): ParamValue | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (!v.startsWith('\u0000')) return v;
    const num = v.slice(1);
    return /[.eE]/.test(num) ? { float: Number(num) } : { integer: BigInt(num) };
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v);
    const [key, inner] = entries[0] ?? [];
    if (entries.length !== 1) return undefined;
    if (key === 'identifier' && typeof inner === 'string') return { identifier: inner };
    if (key === 'string' && typeof inner === 'string') return inner;
    const scalar = toParam(inner);
    if ((key === 'integer' || key === 'number' || key === 'float') && scalar !== undefined && typeof scalar === 'object') {
      if (key === 'integer') return 'integer' in scalar ? scalar : { integer: BigInt(Math.trunc('float' in scalar ? scalar.float : 0)) };
      return 'float' in scalar ? scalar : 'integer' in scalar ? { float: Number(scalar.integer) } : undefined;
    }
    if (key === 'boolean' && typeof inner === 'boolean') return inner;
  }
  return undefined;
}

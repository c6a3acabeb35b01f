/**
 * Bound parameters (`$name`, values from the HTTP `params` JSON). As in 1.x the scanner replaces a
 * `$name` token by the token its value stands for, so a parameter works wherever that token does
 * (`WHERE host = $h`, `LIMIT $n`, `WITH PASSWORD $pw`). A `$name` without a value stays a
 * BOUNDPARAM token; in an expression it is the error `missing parameter: name`.
 *
 * The bindings of the parse in progress are module state: parsing is synchronous, and
 * withParams() restores the previous bindings on every exit path.
 */
import { formatDuration } from '../ast/duration.js';
import { plainFloat } from '../ast/format.js';
import { QueryError } from '../errors.js';
import { goJsonSyntaxError } from './go-json-error.js';
import type { Token } from './scanner.js';

/**
 * A parameter value. JSON numbers follow 1.x: with a `.` a float, otherwise an int64 (numberParam);
 * parseParams() keeps that distinction, which a JS `number` loses. Objects name the token type
 * explicitly, like 1.x's `{"identifier": "cpu"}` or `{"duration": "1h30m"}`. A value 1.x cannot
 * bind (null, an array, a mistyped object) is an `error`: 1.x reports it only where the
 * parameter is used, as `missing parameter: <why>`.
 */
export type ParamValue =
  | string
  | boolean
  | number
  | bigint
  | { readonly float: number }
  | { readonly integer: bigint }
  | { readonly identifier: string }
  | { readonly duration: string }
  | { readonly regex: string }
  | { readonly error: string };

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
  if ('duration' in v) return t('DURATIONVAL', v.duration);
  // a regex is read where the grammar asks for one (boundRegex); anywhere else 1.x finds a REGEX
  if ('regex' in v) return t('ILLEGAL', v.regex);
  // 1.x's error value is a BOUNDPARAM whose text is the reason (literal.ts: missing parameter),
  // printed bare where a token is described (`found integer literal must be ...`)
  if ('error' in v) return { ...t('BOUNDPARAM', v.error), reason: true };
  return t('IDENT', v.identifier);
}

/** The pattern bound to `$name` as `{"regex": ...}`, else undefined. */
export function boundRegex(name: string): string | undefined {
  const v = current !== null && Object.hasOwn(current, name) ? current[name] : undefined;
  return v !== undefined && typeof v === 'object' && 'regex' in v ? v.regex : undefined;
}

/** The token a BOUNDPARAM stands for, or the BOUNDPARAM itself when no value is bound. */
export function boundToken(t: Token): Token {
  if (current === null || t.lit === '' || !Object.hasOwn(current, t.lit)) return t;
  const v = current[t.lit];
  return v === undefined ? t : tokenFor(v, t);
}

/**
 * Parses the HTTP `params` JSON object, keeping 1.x's number rule (numberParam). Errors carry the
 * texts of Go's JSON decoder that 1.x shows (go-json-error.ts); a top-level number 1.x cannot
 * convert is its handler's 400 `error parsing json value: ...`.
 */
export function parseParams(json: string): Params {
  // Wrap every number token (outside strings) in a marker string so JSON.parse keeps its text.
  const marked = json.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (tok) =>
    tok.startsWith('"') ? tok : `"\\u0000${tok}"`,
  );
  // Go's scanner decides what is malformed (the number marking above would let `01` through).
  const syntax = goJsonSyntaxError(json);
  if (syntax !== undefined) throw new QueryError(`error parsing query parameters: ${syntax}`);
  let raw: unknown;
  try {
    raw = parseFirstValue(marked);
  } catch (e) {
    // Go's scanner names the offending character (`invalid character 'a' looking for ...`)
    const text = e instanceof Error ? e.message : String(e);
    throw new QueryError(`error parsing query parameters: ${goJsonSyntaxError(json) ?? text}`);
  }
  if (raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    const kind = Array.isArray(raw) ? 'array' : typeof raw === 'boolean' ? 'bool' : isNumberText(raw) ? 'number' : 'string';
    throw new QueryError(`error parsing query parameters: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  const out: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(raw)) {
    const param = toParam(v);
    if (isNumberText(v) && typeof param === 'object' && 'error' in param) throw new QueryError(`error parsing json value: ${param.error}`);
    out[k] = param;
  }
  return out;
}

/**
 * Go's json.Decoder reads one value and leaves what follows it unread, so 1.x binds
 * `{"a": 1} trailing` as `{"a": 1}`: the same here (V8 names where the first value ended).
 */
function parseFirstValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const end = e instanceof SyntaxError ? /non-whitespace character after JSON at position (\d+)/.exec(e.message) : null;
    if (end === null) throw e;
    return JSON.parse(text.slice(0, Number(end[1])));
  }
}

const isNumberText = (v: unknown): v is string => typeof v === 'string' && v.startsWith('\u0000');

/**
 * A marked JSON number as 1.x's jsonNumberToValue binds it: with a `.` Go's ParseFloat, otherwise
 * ParseInt, so an exponent without a `.` (`1e2`) or an integer past int64 is an error with
 * strconv's text (an overflow to infinity too; an underflow is 0, as in Go).
 */
function numberParam(text: string): { float: number } | { integer: bigint } | { error: string } {
  if (text.includes('.')) {
    const f = Number(text);
    return Number.isFinite(f) ? { float: f } : { error: `strconv.ParseFloat: parsing "${text}": value out of range` };
  }
  if (/[eE]/.test(text)) return { error: `strconv.ParseInt: parsing "${text}": invalid syntax` };
  const i = BigInt(text);
  return i >= -(2n ** 63n) && i < 2n ** 63n ? { integer: i } : { error: `strconv.ParseInt: parsing "${text}": value out of range` };
}

function toParam(v: unknown): ParamValue {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return isNumberText(v) ? numberParam(v.slice(1)) : v;
  if (v === null) return { error: 'unable to bind parameter with type <nil>' };
  if (Array.isArray(v)) return { error: 'unable to bind parameter with type []interface {}' };
  return objectParam(v as Record<string, unknown>);
}

/** 1.x's bindObject: `{"<type>": value}` with exactly one entry. */
function objectParam(o: Record<string, unknown>): ParamValue {
  const entries = Object.entries(o);
  if (entries.length !== 1) return { error: 'bound object parameter value must have exactly one entry' };
  const [key, inner] = entries[0]!;
  const num = isNumberText(inner) ? numberParam(inner.slice(1)) : undefined;
  if (num && 'error' in num) return num;
  switch (key) {
    case 'ident':
    case 'identifier':
      return typeof inner === 'string' && !num ? { identifier: inner } : { error: 'identifier must be a string value' };
    case 'string':
      return typeof inner === 'string' && !num ? inner : { error: 'string literal must be a string value' };
    case 'float':
    case 'number':
      if (!num) return { error: 'number literal must be a float value' };
      return 'float' in num ? num : { float: Number(num.integer) };
    case 'int':
    case 'integer':
      return num && 'integer' in num ? num : { error: 'integer literal must be an integer value' };
    case 'duration':
      // 1.x keeps a string as written and prints a number of ns as influxql's FormatDuration (`found 1h`).
      if (num && 'integer' in num) return { duration: formatDuration(num.integer) };
      return typeof inner === 'string' && !num ? { duration: inner } : { error: 'duration literal must be a string or integer value' };
    case 'regex':
      return typeof inner === 'string' && !num ? { regex: inner } : { error: 'regex literal must be a string value' };
    default:
      return { error: `unknown bind object type: ${key}` };
  }
}

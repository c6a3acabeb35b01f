/**
 * Exact JSON and the comparison rules of the golden query scripts (fixtures/queries), the same
 * rules as the shared conformance runner (shared/conformance/run.mjs):
 *   - numbers equal within 1e-9 relative (or 1e-12 absolute); integers beyond 2^53 exactly,
 *     which is why JSON is parsed by hand here: JSON.parse would round them;
 *   - rows of a series that share a timestamp are compared as a multiset (InfluxDB 1.x orders
 *     them by internal series id, which is not part of the contract);
 *   - `error` strings are compared loosely (case and whitespace folded) and a difference there is
 *     reported as a note, not a failure.
 */

export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

const REL_TOL = 1e-9;
const ABS_TOL = 1e-12;
const MAX_DIFFS = 5;

class JsonSyntaxError extends SyntaxError {}

/** Parses JSON keeping integers outside the safe range as BigInt. */
export function parseJSON(text: string): Json {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (m: string): never => {
    throw new JsonSyntaxError(`${m} at offset ${i}`);
  };
  const str = (): string => {
    let j = i + 1;
    let s = '';
    for (;;) {
      const c = text[j];
      if (c === undefined) fail('unterminated string');
      if (c === '"') break;
      if (c === '\\') {
        const e = text[j + 1] ?? '';
        if (e === 'u') {
          s += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
          j += 6;
          continue;
        }
        const esc: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"' };
        s += esc[e] ?? fail(`bad escape \\${e}`);
        j += 2;
        continue;
      }
      s += c;
      j++;
    }
    i = j + 1;
    return s;
  };
  const value = (): Json => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: { [key: string]: Json } = {};
      ws();
      if (text[i] === '}') return i++, o;
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected key');
        const k = str();
        ws();
        if (text[i] !== ':') fail('expected :');
        i++;
        o[k] = value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, o;
        else fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const a: Json[] = [];
      ws();
      if (text[i] === ']') return i++, a;
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, a;
        else fail('expected , or ]');
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) return (i += word.length), v;
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected token');
    i += m[0].length;
    if (!m[2] && !m[3]) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return Number(m[0]);
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing data');
  return v;
}

/**
 * JSON text with BigInt kept exact. With an indent, arrays of scalars (rows, columns) stay on
 * one line so recorded expectations read like tables.
 */
export function stringifyJSON(v: Json, indent = ''): string {
  const nl = indent ? '\n' : '';
  const rec = (x: Json, pad: string): string => {
    if (typeof x === 'bigint') return x.toString();
    if (x === null || typeof x !== 'object') return JSON.stringify(x);
    const inner = pad + indent;
    if (Array.isArray(x)) {
      if (!x.length) return '[]';
      if (x.every((e) => e === null || typeof e !== 'object')) return '[' + x.map((e) => rec(e, inner)).join(',') + ']';
      return '[' + nl + x.map((e) => inner + rec(e, inner)).join(',' + nl) + nl + pad + ']';
    }
    const ks = Object.keys(x);
    if (!ks.length) return '{}';
    return '{' + nl + ks.map((k) => inner + JSON.stringify(k) + ':' + (indent ? ' ' : '') + rec(x[k] ?? null, inner)).join(',' + nl) + nl + pad + '}';
  };
  return rec(v, '');
}

const isNum = (x: Json): x is number | bigint => typeof x === 'number' || typeof x === 'bigint';

function numEqual(e: number | bigint, a: number | bigint): boolean {
  if (typeof e === 'bigint') return typeof a === 'bigint' ? a === e : Number.isInteger(a) && BigInt(a) === e;
  const an = Number(a);
  if (Object.is(e, an) || e === an) return true;
  if (!Number.isFinite(e) || !Number.isFinite(an)) return false;
  const d = Math.abs(e - an);
  return d <= ABS_TOL || d <= REL_TOL * Math.max(Math.abs(e), Math.abs(an));
}

function show(v: Json): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : stringifyJSON(v);
  return s.length > 160 ? s.slice(0, 157) + '...' : s;
}

/** Sorts each run of rows sharing a timestamp, so such runs compare as multisets. */
function canonicalRows(values: Json[]): Json[] {
  const out: Json[] = [];
  const key = (r: Json): string => stringifyJSON(Array.isArray(r) ? (r[0] ?? null) : r);
  let i = 0;
  while (i < values.length) {
    let j = i + 1;
    while (j < values.length && Array.isArray(values[j]) && key(values[j]!) === key(values[i]!)) j++;
    const grp = values.slice(i, j);
    if (grp.length > 1) grp.sort((x, y) => (stringifyJSON(x) < stringifyJSON(y) ? -1 : 1));
    out.push(...grp);
    i = j;
  }
  return out;
}

const normMsg = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

export interface Comparison {
  /** Differences that fail a case. */
  readonly diffs: string[];
  /** Error-text differences: reported, not failing. */
  readonly notes: string[];
}

function walk(e: Json, a: Json, p: string, out: Comparison): void {
  if (out.diffs.length >= MAX_DIFFS) return;
  if (isNum(e) && isNum(a)) {
    if (!numEqual(e, a)) out.diffs.push(`${p}: expected ${show(e)}, got ${show(a)}`);
    return;
  }
  if (e === null || a === null || typeof e !== 'object' || typeof a !== 'object') {
    if (e !== a) out.diffs.push(`${p}: expected ${show(e)}, got ${show(a)}`);
    return;
  }
  if (Array.isArray(e) || Array.isArray(a)) {
    if (!Array.isArray(e) || !Array.isArray(a)) return void out.diffs.push(`${p}: expected ${show(e)}, got ${show(a)}`);
    if (e.length !== a.length) out.diffs.push(`${p}: expected ${e.length} elements, got ${a.length}`);
    for (let i = 0; i < Math.min(e.length, a.length); i++) walk(e[i]!, a[i]!, `${p}[${i}]`, out);
    return;
  }
  for (const [k, ev] of Object.entries(e)) {
    const av = a[k];
    if (av === undefined) {
      out.diffs.push(`${p}: missing key "${k}" (expected ${show(ev)})`);
    } else if (k === 'error' && typeof ev === 'string' && typeof av === 'string') {
      if (normMsg(ev) !== normMsg(av)) out.notes.push(`${p}.error: expected ${JSON.stringify(ev)}, got ${JSON.stringify(av)}`);
    } else if (k === 'values' && Array.isArray(ev) && Array.isArray(av) && Array.isArray(e.columns) && e.columns[0] === 'time') {
      walk(canonicalRows(ev), canonicalRows(av), `${p}.values`, out);
    } else {
      walk(ev, av, `${p}.${k}`, out);
    }
  }
  for (const [k, av] of Object.entries(a)) if (!(k in e)) out.diffs.push(`${p}: unexpected key "${k}" = ${show(av)}`);
}

/** Compares an actual body with the recorded one under the rules above. */
export function compareJSON(expected: Json, actual: Json): Comparison {
  const out: Comparison = { diffs: [], notes: [] };
  walk(expected, actual, '$', out);
  return out;
}

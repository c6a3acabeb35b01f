/**
 * 1.x JSON result encoding: Go's field order and omitempty rules (`series` and `values`
 * omitted when empty, `tags` only when present), exact int64 (bigint cells print as integer
 * text), times per `epoch`, and `pretty` indentation of 4 spaces like Go's MarshalIndent.
 */
import type { Cell, ResultSeries, StatementResult } from '../../ql/index.js';
import { hasTimeColumn, windowRowTimesOf, zoneOffsetNs } from '../../ql/index.js';
import { formatTimeNs, type Epoch } from './epoch.js';
import { goFloatText } from './go-float.js';
import { goJsonString } from './go-json-string.js';
import { rowsJson } from './json-rows.js';
import { rfc3339Formatter, windowGridTexts } from './time-text.js';

/** Text already in compact JSON form, inserted as is (the rows of a series). */
class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON-ready value tree; bigint values print as integers. */
export type J = null | boolean | number | bigint | string | RawJson | J[] | { [k: string]: J | undefined };

export interface JsonOptions {
  readonly epoch: Epoch | undefined;
  readonly pretty: boolean;
}

function cellJ(c: Cell): J {
  if (typeof c === 'number' && !Number.isFinite(c)) return null;
  return c;
}

/** How cell 0 of a row prints when it is the time. */
export function timeText(epoch: Epoch | undefined, tz: string | undefined): (ns: bigint) => string | bigint {
  if (epoch) return (ns) => formatTimeNs(ns, epoch);
  return rfc3339Formatter(tz ? (ns) => Number(zoneOffsetNs(tz, ns) / 1_000_000_000n) : undefined);
}

/** timeText, or for RFC 3339 in UTC of rows on a window grid, the rows' texts from the grid (time-text.ts). */
function rowTimeText(rows: ResultSeries['values'], epoch: Epoch | undefined, tz: string | undefined): ((ns: bigint) => string | bigint) | readonly string[] {
  const grid = epoch === undefined && tz === undefined ? windowRowTimesOf(rows) : undefined;
  return (grid && windowGridTexts(grid, rows.length)) ?? timeText(epoch, tz);
}

/** Rows as a tree (pretty output) or as compact text written in one pass. */
function valuesJ(s: ResultSeries, epoch: Epoch | undefined, tz: string | undefined, pretty: boolean): J | undefined {
  if (s.values.length === 0) return undefined;
  const timeFirst = hasTimeColumn(s);
  const time = timeText(epoch, tz);
  if (!pretty) return new RawJson(rowsJson(s.values, timeFirst, time));
  return s.values.map((row) => rowJ(row, timeFirst, time));
}

/** One row as a tree (pretty output): cells as 1.x prints them, the time per `time` when first. */
export function rowJ(row: readonly Cell[], timeFirst: boolean, time: (ns: bigint) => string | bigint): J {
  const out: J[] = row.map(cellJ);
  const t = row[0];
  if (timeFirst && typeof t === 'bigint') out[0] = time(t);
  return out;
}

export function seriesJ(s: ResultSeries, epoch: Epoch | undefined, tz: string | undefined, pretty: boolean): J {
  const tags = s.tags && Object.keys(s.tags).length > 0 ? sortKeys(s.tags) : undefined;
  return {
    name: s.name || undefined,
    tags,
    columns: s.columns.length ? [...s.columns] : undefined,
    values: valuesJ(s, epoch, tz, pretty),
    partial: s.partial || undefined,
  };
}

function sortKeys(tags: Readonly<Record<string, string>>): { [k: string]: J } {
  const out: { [k: string]: J } = {};
  for (const k of Object.keys(tags).sort()) out[k] = tags[k]!;
  return out;
}

export function statementJ(r: StatementResult, epoch: Epoch | undefined, pretty: boolean): J {
  return {
    statement_id: r.statementId,
    series: r.series && r.series.length ? r.series.map((s) => seriesJ(s, epoch, r.timeZone, pretty)) : undefined,
    messages: r.messages && r.messages.length ? r.messages.map((m) => ({ level: m.level, text: m.text })) : undefined,
    partial: r.partial || undefined,
    error: r.error,
  };
}

/** 1.x's executor emits a SELECT's series in pieces of this many rows, even unchunked. */
export const EMITTER_CHUNK_ROWS = 10_000;

/**
 * 1.x merges those pieces into one series for a non-chunked answer but keeps the first piece's
 * `partial: true`: every SELECT series of more than 10,000 rows carries it.
 */
export function mergedPartial(r: StatementResult): StatementResult {
  if (!r.series?.some((s) => s.values.length > EMITTER_CHUNK_ROWS)) return r;
  return { ...r, series: r.series.map((s) => (s.values.length > EMITTER_CHUNK_ROWS && hasTimeColumn(s) ? { ...s, partial: true } : s)) };
}

/** The whole `/query` body for non-chunked responses. */
export function resultsToJson(results: readonly StatementResult[], opts: JsonOptions): string {
  // Go's omitempty: a query of no statements (`q=;`) answers `{}`.
  if (results.length === 0) return stringify({}, opts.pretty) + '\n';
  if (!opts.pretty) return compactResults(results, opts.epoch);
  return stringify({ results: results.map((r) => statementJ(mergedPartial(r), opts.epoch, opts.pretty)) }, opts.pretty) + '\n';
}

/**
 * The compact body written in one pass: the same text as stringify of the statementJ trees
 * (json-compact.test.ts), without building them (a tenth of a small query's answer time).
 */
function compactResults(results: readonly StatementResult[], epoch: Epoch | undefined): string {
  let out = '{"results":[';
  for (let i = 0; i < results.length; i++) out += (i > 0 ? ',' : '') + compactStatement(results[i]!, epoch);
  return out + ']}\n';
}

/** One statement's object of a compact non-chunked answer (also written alone by a streamed one). */
export function compactStatement(result: StatementResult, epoch: Epoch | undefined): string {
  const r = mergedPartial(result);
  let out = '{"statement_id":' + stringify(r.statementId, false);
  if (r.series && r.series.length) {
    out += ',"series":[';
    for (let j = 0; j < r.series.length; j++) out += (j > 0 ? ',' : '') + compactSeries(r.series[j]!, epoch, r.timeZone);
    out += ']';
  }
  return out + compactStatementTail(r);
}

/** What follows a statement's series: messages, `partial`, `error`, and the closing brace. */
export function compactStatementTail(r: StatementResult): string {
  let out = '';
  if (r.messages && r.messages.length) out += ',"messages":' + stringify(r.messages.map((m) => ({ level: m.level, text: m.text })), false);
  if (r.partial) out += ',"partial":true';
  if (r.error !== undefined) out += ',"error":' + goJsonString(r.error);
  return out + '}';
}

/**
 * A series object up to its rows: `{"name":...,"columns":[...],"values":[` (a streamed answer
 * writes the rows as they come and closes the object itself).
 */
export function compactSeriesHead(s: ResultSeries): string {
  const head = compactSeries({ ...s, values: [], partial: false }, undefined, undefined);
  return head === '{}' ? '{"values":[' : head.slice(0, -1) + ',"values":[';
}

/** Concatenated, not joined: join would copy the rows' text once more before the body is encoded. */
function compactSeries(s: ResultSeries, epoch: Epoch | undefined, tz: string | undefined): string {
  let out = '';
  const field = (text: string) => (out += (out === '' ? '{' : ',') + text);
  if (s.name) field('"name":' + goJsonString(s.name));
  if (s.tags && Object.keys(s.tags).length > 0) field('"tags":' + stringify(sortKeys(s.tags), false));
  if (s.columns.length) field('"columns":' + columnsJson(s.columns));
  if (s.values.length > 0) field('"values":' + rowsJson(s.values, hasTimeColumn(s), rowTimeText(s.values, epoch, tz)));
  if (s.partial) field('"partial":true');
  return out === '' ? '{}' : out + '}';
}

/**
 * Text of a columns array, kept per array: the series of one statement usually share their
 * plan's columns array (lastpoint's 100 series and their 21 columns were 2,100 string
 * encodings per answer). Result arrays are never changed once built.
 */
const columnsText = new WeakMap<readonly string[], string>();

function columnsJson(columns: readonly string[]): string {
  let t = columnsText.get(columns);
  if (t === undefined) columnsText.set(columns, (t = stringify(columns as string[], false)));
  return t;
}

/** One chunk line of a chunked response. */
export function chunkToJson(r: StatementResult, opts: JsonOptions): string {
  return stringify({ results: [statementJ(r, opts.epoch, opts.pretty)] }, opts.pretty) + '\n';
}

export function errorJson(message: string, pretty = false): string {
  return stringify({ error: message }, pretty) + '\n';
}

/** JSON.stringify with bigint support and Go-style indentation. */
export function stringify(v: J, pretty: boolean, indent = ''): string {
  if (v === null) return 'null';
  if (v instanceof RawJson) return v.text;
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isFinite(v) ? goFloatText(v) : 'null';
    case 'string':
      return goJsonString(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  const inner = indent + '    ';
  // Pieces are concatenated, not joined: the rows' text (large) is then copied once, when the
  // body is encoded, instead of once per nesting level.
  const sep = pretty ? `,\n${inner}` : ',';
  const wrap = (open: string, body: string, close: string) => (pretty ? `${open}\n${inner}${body}\n${indent}${close}` : open + body + close);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    let body = '';
    for (let i = 0; i < v.length; i++) body += (i > 0 ? sep : '') + stringify(v[i]!, pretty, inner);
    return wrap('[', body, ']');
  }
  let body = '';
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    body += (body === '' ? '' : sep) + goJsonString(k) + (pretty ? ': ' : ':') + stringify(x, pretty, inner);
  }
  return body === '' ? '{}' : wrap('{', body, '}');
}

/**
 * 1.x JSON result encoding: Go's field order and omitempty rules (`series` and `values`
 * omitted when empty, `tags` only when present), exact int64 (bigint cells print as integer
 * text), times per `epoch`, and `pretty` indentation of 4 spaces like Go's MarshalIndent.
 */
import type { Cell, ResultSeries, StatementResult } from '../../ql/index.js';
import { hasTimeColumn, zoneOffsetNs } from '../../ql/index.js';
import { formatTimeNs, rfc3339NanoInZone, type Epoch } from './epoch.js';

/** A JSON-ready value tree; bigint values print as integers. */
type J = null | boolean | number | bigint | string | J[] | { [k: string]: J | undefined };

export interface JsonOptions {
  readonly epoch: Epoch | undefined;
  readonly pretty: boolean;
}

function cellJ(c: Cell): J {
  if (typeof c === 'number' && !Number.isFinite(c)) return null;
  return c;
}

function seriesJ(s: ResultSeries, epoch: Epoch | undefined, tz: string | undefined): J {
  const timeFirst = hasTimeColumn(s);
  const values = s.values.map((row) => {
    const out: J[] = row.map(cellJ);
    const t = row[0];
    if (timeFirst && typeof t === 'bigint') {
      out[0] = tz && !epoch ? rfc3339NanoInZone(t, Number(zoneOffsetNs(tz, t) / 1_000_000_000n)) : formatTimeNs(t, epoch);
    }
    return out;
  });
  const tags = s.tags && Object.keys(s.tags).length > 0 ? sortKeys(s.tags) : undefined;
  return {
    name: s.name || undefined,
    tags,
    columns: s.columns.length ? [...s.columns] : undefined,
    values: values.length ? values : undefined,
    partial: s.partial || undefined,
  };
}

function sortKeys(tags: Readonly<Record<string, string>>): { [k: string]: J } {
  const out: { [k: string]: J } = {};
  for (const k of Object.keys(tags).sort()) out[k] = tags[k]!;
  return out;
}

export function statementJ(r: StatementResult, epoch: Epoch | undefined): J {
  return {
    statement_id: r.statementId,
    series: r.series && r.series.length ? r.series.map((s) => seriesJ(s, epoch, r.timeZone)) : undefined,
    messages: r.messages && r.messages.length ? r.messages.map((m) => ({ level: m.level, text: m.text })) : undefined,
    partial: r.partial || undefined,
    error: r.error,
  };
}

/** The whole `/query` body for non-chunked responses. */
export function resultsToJson(results: readonly StatementResult[], opts: JsonOptions): string {
  // Go's omitempty: a query of no statements (`q=;`) answers `{}`.
  if (results.length === 0) return stringify({}, opts.pretty) + '\n';
  return stringify({ results: results.map((r) => statementJ(r, opts.epoch)) }, opts.pretty) + '\n';
}

/** One chunk line of a chunked response. */
export function chunkToJson(r: StatementResult, opts: JsonOptions): string {
  return stringify({ results: [statementJ(r, opts.epoch)] }, opts.pretty) + '\n';
}

export function errorJson(message: string, pretty = false): string {
  return stringify({ error: message }, pretty) + '\n';
}

/** JSON.stringify with bigint support and Go-style indentation. */
export function stringify(v: J, pretty: boolean, indent = ''): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  const inner = indent + '    ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const parts = v.map((x) => stringify(x, pretty, inner));
    return pretty ? `[\n${inner}${parts.join(`,\n${inner}`)}\n${indent}]` : `[${parts.join(',')}]`;
  }
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    parts.push(`${JSON.stringify(k)}:${pretty ? ' ' : ''}${stringify(x, pretty, inner)}`);
  }
  if (parts.length === 0) return '{}';
  return pretty ? `{\n${inner}${parts.join(`,\n${inner}`)}\n${indent}}` : `{${parts.join(',')}}`;
}

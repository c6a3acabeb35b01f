/**
 * Compile a SELECT into what execution needs: GROUP BY time window and tag dimensions, the
 * time range, the column projection and the union schema of its sources.
 */
import type { Expr, SelectStatement } from '../ast/nodes.js';
import { printExpr } from '../ast/print.js';
import { compileRegex } from '../ast/regex.js';
import type { Matcher } from '../../engine/index.js';
import { QueryError } from '../errors.js';
import { analyzeProjection, callsIn, type Projection, type SchemaInfo } from '../plan/projection.js';
import { splitTimeRange, type TimeSplit } from '../plan/time-range.js';
import { hasFunctionCall } from '../plan/functions.js';
import { windowSpec, type WindowSpec } from './window.js';
import type { MeasurementSource } from './source.js';
import { FieldType } from '../../engine/index.js';
import { timeReadsFillValue } from './fill-time-reference.js';

export interface Dimensions {
  readonly all: boolean;
  readonly names: readonly string[];
  readonly regexes: readonly Matcher[];
}

export interface SelectPlan {
  readonly stmt: SelectStatement;
  readonly window: WindowSpec | undefined;
  readonly dims: Dimensions;
  readonly time: TimeSplit;
  readonly projection: Projection;
  readonly schema: SchemaInfo;
  readonly ascending: boolean;
  /**
   * The inner statement of a subquery. 1.x turns count()'s fill(null) into 0 only for the
   * rows it answers, so inside a subquery an empty window of count() is no row at all.
   */
  readonly nested?: boolean;
}

export function parseDimensions(dims: readonly Expr[], nowNs: bigint, tz: string | null): { window: WindowSpec | undefined; dims: Dimensions } {
  let window: WindowSpec | undefined;
  const names: string[] = [];
  const regexes: Matcher[] = [];
  let all = false;
  for (const d of dims) {
    if (d.kind === 'Call' && d.name.toLowerCase() === 'time') {
      if (d.args.length < 1 || d.args.length > 2) throw new QueryError('time dimension expected 1 or 2 arguments');
      const interval = d.args[0];
      const offset = d.args[1];
      if (!interval || interval.kind !== 'Duration') throw new QueryError('time dimension must have duration argument');
      // 1.x: an interval of 0 is no time grouping at all (raw queries included).
      if (interval.ns === 0n) continue;
      let off = 0n;
      if (offset) {
        if (offset.kind === 'Duration') off = offset.ns;
        else if (offset.kind === 'Unary' && offset.op === '-' && offset.expr.kind === 'Duration') off = -offset.expr.ns;
        else if (offset.kind === 'Call' && offset.name.toLowerCase() === 'now') off = nowNs % interval.ns;
        else throw new QueryError('time dimension offset must be duration or now()');
      }
      if (window) throw new QueryError('multiple time dimensions not allowed');
      window = windowSpec(interval.ns, off, tz ?? undefined);
    } else if (d.kind === 'VarRef') names.push(d.name);
    else if (d.kind === 'Wildcard') all = true;
    else if (d.kind === 'Regex') regexes.push(compileRegex(d.source));
    else throw new QueryError('only time() calls allowed in dimensions');
  }
  return { window, dims: { all, names, regexes } };
}

/** The tag keys a source is grouped by, sorted. */
/**
 * The GROUP BY tag keys. `*` and regexes expand over the tag keys of every source of the
 * statement, as 1.x expands them once: a measurement without one of them groups it as ''.
 */
export function dimensionTags(dims: Dimensions, tagKeys: Iterable<string>): string[] {
  const out = new Set(dims.names);
  // Tag keys only when a wildcard or a regex asks for them (a copy and a sort per request otherwise).
  if (dims.all || dims.regexes.length > 0) for (const k of tagKeys) if (dims.all || dims.regexes.some((r) => r.test(k))) out.add(k);
  return out.size === 0 ? [] : [...out].sort();
}

export function unionSchema(sources: readonly MeasurementSource[]): SchemaInfo {
  const fields = new Map<string, FieldType>();
  const tags = new Set<string>();
  const fromTags = new Set<string>();
  const unlisted = new Set<string>();
  const untyped = new Set<string>();
  for (const s of sources) {
    for (const [k, t] of s.fieldTypes()) if (!fields.has(k)) fields.set(k, t);
    for (const k of s.tagKeys()) tags.add(k);
    for (const k of s.fieldsFromTags?.() ?? []) fromTags.add(k);
    for (const k of s.unlistedFields?.() ?? []) unlisted.add(k);
    for (const k of s.untypedFields?.() ?? []) untyped.add(k);
  }
  for (const k of fields.keys()) untyped.delete(k);
  return { fields, tags, fromTags, unlisted, untyped };
}

/** 1.x: every leaf of WHERE's AND/OR tree must be a comparison or a boolean literal. */
function checkConditionLeaves(e: Expr): void {
  if (e.kind === 'Binary' && (e.op === 'AND' || e.op === 'OR')) {
    checkConditionLeaves(e.lhs);
    checkConditionLeaves(e.rhs);
  } else if (e.kind === 'Unary' && e.op === 'NOT') checkConditionLeaves(e.expr);
  else if (e.kind !== 'Binary' && e.kind !== 'Boolean') throw new QueryError(`invalid condition expression: ${printExpr(e)}`);
}

export function compileSelect(stmt: SelectStatement, sources: readonly MeasurementSource[], nowNs: bigint): SelectPlan {
  if (stmt.condition) checkConditionLeaves(stmt.condition);
  const { window, dims } = parseDimensions(stmt.dimensions, nowNs, stmt.location);
  const time = splitTimeRange(stmt.condition, nowNs, window !== undefined, false, stmt.location);
  const schema = unionSchema(sources);
  // Tags a wildcard or regex field list leaves out: the GROUP BY tags, and with a regex or
  // wildcard dimension every tag (1.x, also when the regex matches no tag at all).
  const dimTags = new Set<string>(dims.all || dims.regexes.length > 0 ? schema.tags : dims.names);
  const analyzed = analyzeProjection(stmt.fields, schema, dimTags, window !== undefined);
  const projection = { ...analyzed, columns: timeReadsFillValue(analyzed.columns, stmt.fill) };
  checkFillNeedsFunction(stmt);
  checkTopBottomLimit(projection, stmt.limit);
  const ascending = !stmt.sortFields.some((s) => !s.ascending);
  return { stmt, window, dims, time, projection, schema, ascending };
}

/** 1.x's validateFields: fill(none) and fill(linear) need a call that is not math (raw rows fill only with N or previous). */
function checkFillNeedsFunction(stmt: SelectStatement): void {
  if ((stmt.fill.mode !== 'none' && stmt.fill.mode !== 'linear') || hasFunctionCall(stmt.fields)) return;
  throw new QueryError(`fill(${stmt.fill.mode}) must be used with a function`);
}

/**
 * The plan of `stmt`, a statement equal to `template.stmt` in everything but its WHERE
 * condition, compiled against the template's sources: what compileSelect(stmt, sources, nowNs)
 * returns, since of compileSelect's steps only the condition's check and the time range read
 * the condition (the window, dimensions, schema and projection come from the other parts).
 * Throws where compileSelect would throw for the condition.
 */
export function withCondition(template: SelectPlan, stmt: SelectStatement, nowNs: bigint): SelectPlan {
  if (stmt.condition) checkConditionLeaves(stmt.condition);
  const time = splitTimeRange(stmt.condition, nowNs, template.window !== undefined, false, stmt.location);
  return { ...template, stmt, time };
}

/** 1.x refuses top(x, N) / bottom(x, N) with N above the statement's LIMIT. */
function checkTopBottomLimit(projection: Projection, limit: number): void {
  if (limit <= 0) return;
  for (const c of projection.columns.flatMap((col) => callsIn(col.expr))) {
    const name = c.name.toLowerCase();
    const n = c.args[c.args.length - 1];
    if ((name === 'top' || name === 'bottom') && n?.kind === 'Integer' && n.value > BigInt(limit)) {
      throw new QueryError(`limit (${n.value}) in ${name} function can not be larger than the LIMIT (${limit}) in the select statement`);
    }
  }
}

export function isIntegerType(t: FieldType | undefined): boolean {
  return t === FieldType.Integer || t === FieldType.Unsigned;
}

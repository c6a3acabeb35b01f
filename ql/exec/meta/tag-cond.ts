/**
 * WHERE conditions of metadata statements → engine TagExpr plus a time range.
 *
 * Tag comparisons (`=`, `!=`, `=~`, `!~`, AND, OR) translate one to one. Top-level time
 * comparisons become the range (ql/plan/time-range.ts); a time comparison nested under OR only
 * widens the range (its branch is `true` here), as 1.x drops time from the tag filter. Any other
 * comparison is 1.x's `invalid tag comparison operator`.
 */
import { TRUE_EXPR } from '../../../engine/index.js';
import type { TagExpr } from '../../../engine/index.js';
import type { Expr } from '../../ast/nodes.js';
import { compileRegex, jsRegex } from '../../ast/regex.js';
import { walkExpr } from '../../ast/walk.js';
import { isTimeRef, mentionsTime, splitTimeRange } from '../../plan/time-range.js';
import { invalidTagComparison, MetaError } from './errors.js';

export { mentionsTime };

export interface TagCondition {
  /** The tag filter (`_name` comparisons left as tags). */
  readonly expr: TagExpr;
  /** The tag filter for one measurement (`_name` comparisons and, for SHOW, its field keys decided). */
  exprFor(measurement: MeasurementKeys): TagExpr;
  /** True when WHERE bounds time (on either side). */
  readonly timed: boolean;
  readonly minNs: bigint;
  readonly maxNs: bigint;
  /** The time bounds cannot be satisfied. */
  readonly empty: boolean;
}

/** What exprFor needs to know of a measurement. */
export interface MeasurementKeys {
  readonly name: string;
  readonly fields: ReadonlyMap<string, unknown>;
  readonly tags?: ReadonlyMap<string, unknown>;
}

export interface TranslateOptions {
  /** Called for every tag key the condition names (DELETE rejects field keys through it). */
  readonly onKey?: (key: string) => void;
  /** Evaluate `_name` comparisons against this measurement name (1.x SHOW statements). */
  readonly measurement?: string;
  /**
   * Field keys of that measurement: 1.x's index answers a comparison on a field key with every
   * series (the field would be checked on data, which SHOW statements do not read).
   */
  readonly fieldsMatchAll?: ReadonlyMap<string, unknown>;
  /**
   * What a comparison with a number or boolean means: 1.x SHOW statements ignore it (`true`);
   * deletes must never widen, so they match nothing (`false`, the default).
   */
  readonly nonString?: 'true' | 'false';
  /**
   * Reject time comparisons the range cannot express exactly (`time != x`, time under OR)
   * instead of widening them to `true`: a delete must not remove more than asked.
   */
  readonly exactTime?: boolean;
  /** Decide comparisons on a measurement's field keys as 1.x's index does (SHOW statements). */
  readonly fieldsFromIndex?: boolean;
  /**
   * Tag keys of the measurement: an ordering comparison (`<`, `>=`, ...) on any other key is a
   * filter on data for 1.x's index, like a field comparison (matches every series).
   */
  readonly orderingOnNonTagMatchesAll?: ReadonlyMap<string, unknown>;
  /**
   * A comparison of `key` with `value` decided outright (true: every series, false: none), or
   * undefined to compare it as a tag (CARDINALITY statements that 1.x runs as a SELECT).
   */
  readonly fieldVerdict?: (key: string, value: Expr, op: string, measurement?: MeasurementKeys) => boolean | undefined;
  /** Translate the condition for each measurement apart (fieldVerdict then sees its keys). */
  readonly perMeasurement?: boolean;
  /** The measurement exprFor translates for (set by exprFor). */
  readonly keysOf?: MeasurementKeys;
}

const FALSE_EXPR: TagExpr = { op: 'false' };
const and = (left: TagExpr, right: TagExpr): TagExpr =>
  left.op === 'false' || right.op === 'false' ? FALSE_EXPR : left.op === 'true' ? right : right.op === 'true' ? left : { op: 'and', left, right };
const or = (left: TagExpr, right: TagExpr): TagExpr =>
  left.op === 'true' || right.op === 'true' ? TRUE_EXPR : left.op === 'false' ? right : right.op === 'false' ? left : { op: 'or', left, right };
const constant = (b: boolean): TagExpr => (b ? TRUE_EXPR : FALSE_EXPR);

function comparison(e: Expr & { kind: 'Binary' }, opts: TranslateOptions): TagExpr {
  let ref: Expr & { kind: 'VarRef' };
  let value: Expr;
  if (e.lhs.kind === 'VarRef') {
    ref = e.lhs;
    value = e.rhs;
  } else if (e.rhs.kind === 'VarRef') {
    ref = e.rhs;
    value = e.lhs;
  } else throw invalidTagComparison();
  const key = ref.name;
  opts.onKey?.(key);
  const positive = e.op === '=' || e.op === '=~';
  if (key === '_name' && opts.measurement !== undefined) {
    const name = opts.measurement;
    if (value.kind === 'Regex') return constant(compileRegex(value.source).test(name) === positive);
    return constant(value.kind === 'String' && (value.value === name) === positive);
  }
  const verdict = ref.type !== 'tag' ? opts.fieldVerdict?.(key, value, e.op, opts.keysOf) : undefined;
  if (verdict !== undefined) return constant(verdict);
  if (ref.type !== 'tag' && opts.fieldsMatchAll?.has(key)) return TRUE_EXPR;
  if (value.kind === 'Regex') {
    // 1.x's index matches a regex only for `=~`; any other operator (`t = $re` with a bound
    // regex) selects the series the regex does not match
    const re = jsRegex(value.source);
    return { op: e.op === '=~' ? 'match' : 'nmatch', key, pattern: re.source, flags: re.flags };
  }
  if (e.op === '=~' || e.op === '!~') throw invalidTagComparison();
  if (value.kind === 'String') return { op: positive ? 'eq' : 'neq', key, value: value.value };
  return constant(opts.nonString === 'true');
}

/** Translate a condition without time comparisons at the top level. */
export function toTagExpr(e: Expr, opts: TranslateOptions = {}): TagExpr {
  if (e.kind === 'Boolean') return constant(e.value);
  if (e.kind !== 'Binary') throw invalidTagComparison();
  if (e.op === 'AND') return and(toTagExpr(e.lhs, opts), toTagExpr(e.rhs, opts));
  if (e.op === 'OR') return or(toTagExpr(e.lhs, opts), toTagExpr(e.rhs, opts));
  if (isTimeRef(e.lhs) || isTimeRef(e.rhs)) {
    if (opts.exactTime) throw new MetaError('only AND-combined time conditions with <, <=, >, >= or = are supported here', 'unsupported_time_condition');
    return TRUE_EXPR;
  }
  if (e.op === '=' || e.op === '!=' || e.op === '=~' || e.op === '!~') return comparison(e, opts);
  const fieldRef = e.lhs.kind === 'VarRef' ? e.lhs : e.rhs.kind === 'VarRef' ? e.rhs : undefined;
  if (fieldRef && fieldRef.type !== 'tag') {
    const verdict = opts.fieldVerdict?.(fieldRef.name, fieldRef === e.lhs ? e.rhs : e.lhs, e.op, opts.keysOf);
    if (verdict !== undefined) return constant(verdict);
    const tags = opts.orderingOnNonTagMatchesAll;
    if (opts.fieldsMatchAll?.has(fieldRef.name) || (tags !== undefined && !tags.has(fieldRef.name))) return TRUE_EXPR;
  }
  // Let the caller name a field first (DELETE's error), then reject the operator.
  if (e.lhs.kind === 'VarRef') opts.onKey?.(e.lhs.name);
  if (e.rhs.kind === 'VarRef') opts.onKey?.(e.rhs.name);
  throw invalidTagComparison();
}

/** Keys a condition names without a `::tag` hint (fields or tags, depending on the measurement). */
export function namedKeys(cond: Expr): Set<string> {
  const names = new Set<string>();
  walkExpr(cond, (n) => {
    if (n.kind === 'VarRef' && n.type !== 'tag') names.add(n.name);
    return true;
  });
  return names;
}

/** Keys of `m` that are fields only (a key that is also a tag compares as the tag). */
export function fieldOnlyKeys(m: { readonly fields: ReadonlyMap<string, unknown>; readonly tags: ReadonlyMap<string, unknown> }): Map<string, true> {
  const keys = new Map<string, true>();
  for (const k of m.fields.keys()) if (!m.tags.has(k)) keys.set(k, true);
  return keys;
}

/** Split a WHERE condition into its time range and its tag filter. */
export function tagCondition(cond: Expr | null, nowNs: bigint, opts: TranslateOptions = {}): TagCondition {
  const split = splitTimeRange(cond, nowNs, false, true);
  const rest = split.rest;
  const expr = rest ? toTagExpr(rest, opts) : TRUE_EXPR;
  const names = rest ? namedKeys(rest) : new Set<string>();
  const keys = opts.fieldsFromIndex ? [...names] : [];
  const decidedPer = (m: MeasurementKeys): boolean => opts.perMeasurement === true || names.has('_name') || keys.some((k) => m.fields.has(k));
  return {
    expr,
    exprFor: (m) => (rest && decidedPer(m) ? toTagExpr(rest, { ...opts, measurement: m.name, keysOf: m, fieldsMatchAll: opts.fieldsFromIndex ? m.fields : undefined }) : expr),
    timed: split.hasMin || split.hasMax || (cond !== null && mentionsTime(cond)),
    minNs: split.min,
    maxNs: split.max,
    empty: split.empty,
  };
}

/** How SHOW statements translate WHERE (1.x: `_name` is the measurement, non-string comparisons are ignored). */
export const SHOW_OPTIONS: TranslateOptions = { nonString: 'true', fieldsFromIndex: true };

/**
 * The inner statement of a subquery as 1.x runs it, from the outer statement:
 * - over the intersection of both time ranges (the outer range does not filter the inner rows
 *   again: select.ts's SubquerySource keeps a window starting before the outer lower bound);
 * - grouped by the outer GROUP BY tags too, so the inner series carry them;
 * - in the outer statement's time order (an inner ORDER BY in the other direction is an error,
 *   1.x's text): under an outer ORDER BY time DESC an inner LIMIT keeps the newest rows and an
 *   inner derivative runs backwards;
 * - without the empty windows of fill(null) (none reach the outer query, and an inner LIMIT
 *   counts only windows with data, as under fill(none));
 * - 1.x passes the outer GROUP BY time interval down to an inner statement without one: an
 *   inner aggregate runs per outer window (`SELECT max(m) FROM (SELECT last(x) AS m ... GROUP
 *   BY host) ... GROUP BY time(1h)` takes each host's last point of every hour), and a
 *   derivative of a raw field without a unit takes the interval as its unit (1s otherwise).
 */
import type { Call, Expr, Field, SelectStatement, TagSetDims } from '../ast/nodes.js';
import { compileRegex } from '../ast/regex.js';
import { walkExpr } from '../ast/walk.js';
import { AGGREGATES, hasFunctionCall, isMath } from '../plan/functions.js';
import { MAX_NS, MIN_NS, splitTimeRange, type TimeSplit } from '../plan/time-range.js';
import { QueryError } from '../errors.js';
import type { QueryContext } from './context.js';
import { parseDimensions } from './select-plan.js';
import type { WindowSpec } from './window.js';

/** The statement's time range, as compileSelect computes it (throws on a condition it cannot split). */
export function statementTime(stmt: SelectStatement, ctx: QueryContext): TimeSplit {
  const { window } = parseDimensions(stmt.dimensions, ctx.nowNs, stmt.location);
  return splitTimeRange(stmt.condition, ctx.nowNs, window !== undefined, false, stmt.location);
}

/**
 * The range an outer statement reads its subqueries over: its own, one GROUP BY time interval
 * earlier (later under ORDER BY time DESC) when a transform reads an aggregate of it. 1.x moves
 * the transform's iterator options by one interval (select.go buildCallIterator) and hands
 * those options to the subquery (newIteratorOptionsSubstatement), so the inner statement runs
 * from there: `derivative(max(b)) ... WHERE time >= '13:15' GROUP BY time(30m)` reads inner rows
 * from 12:45 (an inner window of 12:30 reduced over its points from 12:45). Not before an
 * enclosing statement's range (ctx.outermostRange, as widenedCondition).
 */
export function subqueryRange(outer: SelectStatement, ctx: QueryContext): TimeSplit {
  const range = statementTime(outer, ctx);
  const interval = parseDimensions(outer.dimensions, ctx.nowNs, outer.location).window?.interval;
  if (interval === undefined || !readsSubqueriesEarly(outer)) return range;
  const top = ctx.outermostRange;
  if (!outer.sortFields.some((f) => !f.ascending)) {
    if (!range.hasMin || range.min <= MIN_NS) return range;
    const moved = range.min - interval;
    return { ...range, min: top && top.min > moved ? top.min : moved };
  }
  if (!range.hasMax || range.max >= MAX_NS) return range;
  const moved = range.max + interval;
  return { ...range, max: top && top.max < moved ? top.max : moved };
}

/**
 * Every call of the statement (math around them aside) is a transform of an aggregate that 1.x
 * starts an interval early (READS_EARLIER; not cumulative_sum() nor the forecasts). 1.x builds
 * an iterator per call, each with its own options, so beside another call (`max(b),
 * difference(max(b))`) the two read the subquery over different ranges: such a statement is run
 * in two parts (per-call-ranges.ts), and one that is not split keeps its own range.
 */
export function readsSubqueriesEarly(stmt: SelectStatement): boolean {
  let transforms = 0;
  let others = 0;
  for (const f of stmt.fields) {
    walkExpr(f.expr, (e) => {
      if (e.kind !== 'Call') return true;
      const name = e.name.toLowerCase();
      if (isMath(name)) return true;
      if (READS_EARLIER.has(name) && e.args[0]?.kind === 'Call') transforms++;
      else others++;
      return false;
    });
  }
  return transforms > 0 && others === 0;
}

function timeCondition(t: TimeSplit): Expr | null {
  const parts: Expr[] = [];
  const time: Expr = { kind: 'VarRef', name: 'time', type: null };
  if (t.hasMin && t.min > MIN_NS) parts.push({ kind: 'Binary', op: '>=', lhs: time, rhs: { kind: 'Integer', value: t.min } });
  if (t.hasMax && t.max < MAX_NS) parts.push({ kind: 'Binary', op: '<=', lhs: time, rhs: { kind: 'Integer', value: t.max } });
  return parts.reduce<Expr | null>((a, b) => (a ? { kind: 'Binary', op: 'AND', lhs: a, rhs: b } : b), null);
}

const UNIT_DEFAULTED: ReadonlySet<string> = new Set(['derivative', 'non_negative_derivative']);

/** `e` with every unit-less derivative of a raw field given `unitNs` as its unit. */
function withDerivativeUnit(e: Expr, unitNs: bigint): Expr {
  if (e.kind === 'Binary') return { ...e, lhs: withDerivativeUnit(e.lhs, unitNs), rhs: withDerivativeUnit(e.rhs, unitNs) };
  if (e.kind === 'Unary') return { ...e, expr: withDerivativeUnit(e.expr, unitNs) };
  if (e.kind !== 'Call') return e;
  const call: Call = e;
  if (UNIT_DEFAULTED.has(call.name.toLowerCase()) && call.args.length === 1 && call.args[0]!.kind === 'VarRef') {
    return { ...call, args: [call.args[0]!, { kind: 'Duration', ns: unitNs }] };
  }
  return { ...call, args: call.args.map((a) => withDerivativeUnit(a, unitNs)) };
}

/** The inner statement to run for `outer`'s subquery `inner`. */
export function innerStatement(outer: SelectStatement, given: SelectStatement, ctx: QueryContext): SelectStatement {
  const ascending = !outer.sortFields.some((f) => !f.ascending);
  if (given.sortFields.some((f) => f.ascending !== ascending)) throw new QueryError('subqueries must be ordered in the same direction as the query itself');
  let inner: SelectStatement = ascending ? given : { ...given, sortFields: [{ name: 'time', ascending: false }] };
  if (inner.fill.mode === 'null' && hasFunctionCall(inner.fields)) inner = { ...inner, fill: { mode: 'none' } };
  const range = subqueryRange(outer, ctx);
  const extra = timeCondition(range);
  const condition = extra ? (inner.condition ? { kind: 'Binary' as const, op: 'AND' as const, lhs: inner.condition, rhs: extra } : extra) : inner.condition;
  const has = new Set(inner.dimensions.flatMap((d) => (d.kind === 'VarRef' ? [d.name] : [])));
  const pushed = outer.dimensions.filter((d) => d.kind === 'VarRef' && !has.has(d.name));
  // 1.x hands the outer Dimensions down unchanged (newIteratorOptionsSubstatement)
  inner = { ...inner, tagSetDims: outer.tagSetDims ?? outerTagSet(outer.dimensions, given.dimensions) };
  // A raw outer statement passes on the interval it inherited itself (three levels and more).
  const time = outer.dimensions.filter(isTimeDimension);
  if (time.length === 0 && outer.inheritedTime) time.push(outer.inheritedTime);
  const interval = parseDimensions(time, ctx.nowNs, outer.location).window?.interval;
  if (interval === undefined || parseDimensions(inner.dimensions, ctx.nowNs, inner.location).window) {
    return { ...inner, condition, dimensions: [...inner.dimensions, ...pushed] };
  }
  if (aggregates(inner)) return { ...inner, condition, dimensions: [...time, ...inner.dimensions, ...pushed] };
  const fields: readonly Field[] = inner.fields.map((f) => ({ ...f, expr: withDerivativeUnit(f.expr, interval) }));
  const widened = readsIntervalEarlier(inner) ? widenedCondition(inner, range, interval, ascending, ctx) : condition;
  return { ...inner, fields, condition: widened, dimensions: [...inner.dimensions, ...pushed], inheritedTime: time[0] };
}

/**
 * The outer GROUP BY tags as 1.x hands them to the inner statement: influxql's RewriteFields
 * has expanded a wildcard or a regex there over the subquery's dimensions, i.e. the inner
 * statement's own GROUP BY tags (`(... GROUP BY region, dc) GROUP BY /reg/` is region, a regex
 * matching none of them is no tag at all). Inner GROUP BY tags that are a wildcard or a regex
 * themselves are known only with the sources: the pattern is then kept (tag-set-edge-heap.ts).
 */
function outerTagSet(outerDims: readonly Expr[], innerDims: readonly Expr[]): TagSetDims {
  const names: string[] = [];
  const regexes: string[] = [];
  let all = false;
  for (const d of outerDims) {
    if (d.kind === 'VarRef') names.push(d.name);
    else if (d.kind === 'Wildcard') all = true;
    else if (d.kind === 'Regex') regexes.push(d.source);
  }
  if (!all && regexes.length === 0) return { names, all, regexes };
  if (!innerDims.every((d) => d.kind === 'VarRef' || isTimeDimension(d))) return { names, all, regexes };
  const matchers = regexes.map(compileRegex);
  for (const d of innerDims) if (d.kind === 'VarRef' && !names.includes(d.name) && (all || matchers.some((m) => m.test(d.name)))) names.push(d.name);
  return { names, all: false, regexes: [] };
}

/** Raw transforms 1.x starts one interval early (late under DESC) when the statement has one. */
export const READS_EARLIER: ReadonlySet<string> = new Set(['derivative', 'non_negative_derivative', 'difference', 'non_negative_difference', 'moving_average', 'elapsed']);

function readsIntervalEarlier(stmt: SelectStatement): boolean {
  let found = false;
  for (const f of stmt.fields) walkExpr(f.expr, (e) => void (e.kind === 'Call' && READS_EARLIER.has(e.name.toLowerCase()) && (found = true)));
  return found;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The condition of an inner raw transform under an inherited interval: 1.x moves the start of
 * its range one interval earlier (the end one later under DESC), so rows before the outer lower
 * bound reach the outer query, but not before the outermost statement's range (1.x clamps every
 * read to it: ctx.outermostRange). From an unbounded start the move wraps Go's int64 around
 * before that clamp, which only a bounded range applies: nothing is read.
 */
function widenedCondition(inner: SelectStatement, outer: TimeSplit, interval: bigint, ascending: boolean, ctx: QueryContext): Expr | null {
  const own = statementTime(inner, ctx);
  const min = own.min > outer.min ? own.min : outer.min;
  const max = own.max < outer.max ? own.max : outer.max;
  let moved = ascending ? min - interval : max + interval;
  const wraps = moved < INT64_MIN || moved > INT64_MAX;
  const top = ctx.outermostRange;
  if (top && ascending && top.min > MIN_NS && moved < top.min) moved = top.min;
  if (top && !ascending && top.max < MAX_NS && moved > top.max) moved = top.max;
  const range: TimeSplit = wraps
    ? { ...own, min: 1n, max: 0n, hasMin: true, hasMax: true }
    : { ...own, min: ascending ? moved : min, max: ascending ? max : moved, hasMin: true, hasMax: true };
  const time = timeCondition(range);
  if (!own.rest) return time;
  return time ? { kind: 'Binary', op: 'AND', lhs: own.rest, rhs: time } : own.rest;
}

const isTimeDimension = (d: Expr): boolean => d.kind === 'Call' && d.name.toLowerCase() === 'time';

/** The statement selects an aggregate (one row per window and series, not raw rows). */
export function aggregates(stmt: SelectStatement): boolean {
  let found = false;
  for (const f of stmt.fields) {
    walkExpr(f.expr, (e) => {
      if (e.kind === 'Call' && AGGREGATES.has(e.name.toLowerCase())) found = true;
      if (e.kind === 'Distinct') found = true;
    });
  }
  return found;
}

/**
 * 1.x emits an aggregate's rows window by window and, within a window, series by series: the
 * rows of an inner aggregate without GROUP BY time (one window) reach an outer raw SELECT in
 * series order, whatever times its selectors give them. A raw statement over one subquery passes
 * them on in that order (its merge of a single input sorts nothing), so they reach the
 * statement above it in series order too (`SELECT * FROM (SELECT * FROM (SELECT last(v) ...
 * GROUP BY g))` lists the groups in turn); several sources are merged by time.
 */
export function rowsInSeriesOrder(inner: SelectStatement, ctx: QueryContext): boolean {
  if (aggregates(inner)) return !parseDimensions(inner.dimensions, ctx.nowNs, inner.location).window;
  // An interval handed down gives the statement below windows: its rows come window by window.
  const [only, ...more] = inner.sources;
  return more.length === 0 && only?.kind === 'SubQuery' && !inner.inheritedTime && rowsInSeriesOrder(only.statement, ctx);
}

/**
 * Whether every row of the inner result reaches an outer raw SELECT, even where the columns it
 * selects are null (1.x streams the inner rows): a raw inner query (its rows each hold some
 * value), or an inner fill(previous|linear). Other inner aggregates keep 1.x's rule of rows
 * with a value.
 */
export function keepsInnerNullRows(inner: SelectStatement): boolean {
  return !aggregates(inner) || inner.fill.mode === 'previous' || inner.fill.mode === 'linear';
}

/** An inner aggregate with GROUP BY time: its rows of one window reach the outer query series by series. */
export function tiesInSeriesOrder(inner: SelectStatement, ctx: QueryContext): boolean {
  return aggregates(inner) && Boolean(parseDimensions(inner.dimensions, ctx.nowNs, inner.location).window);
}

/** Selectors answering several rows per window, each at its point's time. */
const MULTI_ROW_SELECTORS: ReadonlySet<string> = new Set(['top', 'bottom', 'sample']);

/**
 * The inner windows, when an inner multi-row selector with GROUP BY time gives rows at their
 * points' times: 1.x emits them window by window, series by series, a series' rows of one window
 * together (`top(v, 2) ... GROUP BY time(20s), h` reaches an outer raw SELECT as a@0, a@10, b@5,
 * b@15), not merged by time. Under ORDER BY time DESC the windows come newest first, the series
 * still in key order, and a series' rows of one window still oldest first (the selector sorts
 * them by time): a@20, a@30, b@25, b@35, a@0, ... (subquery-source.ts windowsNewestFirst).
 */
export function seriesWindows(inner: SelectStatement, ctx: QueryContext): WindowSpec | undefined {
  let multi = false;
  for (const f of inner.fields) walkExpr(f.expr, (e) => void (e.kind === 'Call' && MULTI_ROW_SELECTORS.has(e.name.toLowerCase()) && (multi = true)));
  return multi ? parseDimensions(inner.dimensions, ctx.nowNs, inner.location).window : undefined;
}

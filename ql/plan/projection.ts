/**
 * SELECT field analysis: expand `*` and regexes against the sources' fields and tags, name
 * the columns as 1.x does (function name, `count_<field>` for wildcard calls, concatenated
 * names for expressions, `_1`/`_2` for duplicates), and classify the query shape.
 */
import { FieldType } from '../../engine/index.js';
import type { Call, Expr, Field, VarRef } from '../ast/nodes.js';
import { compileRegex } from '../ast/regex.js';
import { QueryError } from '../errors.js';
import { ACCEPTED_TYPES } from '../exec/reducers/index.js';
import { checkCall } from './call-checks.js';
import { foldConstantMath } from './fold-math.js';
import { AGGREGATES, TRANSFORMS, isMath } from './functions.js';

/** 1.x keeps OnlySelectors for these selectors. */
const ONLY_SELECTORS: ReadonlySet<string> = new Set(['max', 'min', 'first', 'last', 'percentile', 'top', 'bottom', 'sample']);
import { checkOperandTypes, hasVariable } from './operand-types.js';
import { reduceLiteralPairs } from './literal-pairs.js';
import { refuseRegexBesideLiteral, refuseRegexInExpression } from './regex-operands.js';
import { memoProjection } from './projection-memo.js';

export interface SchemaInfo {
  /** Union of the sources' fields (name → type of the first source that has it). */
  readonly fields: ReadonlyMap<string, FieldType>;
  readonly tags: ReadonlySet<string>;
  /** Fields carrying an inner query's tag values: not expanded by `count(*)` and the like. */
  readonly fromTags?: ReadonlySet<string>;
  /** An inner top()/bottom()'s tag columns: readable by name, never listed by `*` or a regex (1.x). */
  readonly unlisted?: ReadonlySet<string>;
  /** An inner query's columns of no type (a call 1.x types Unknown): `*` lists them, no call reads them. */
  readonly untyped?: ReadonlySet<string>;
}

export interface Column {
  readonly name: string;
  readonly expr: Expr;
  /**
   * 1.x's Field.Name(): the alias or the expression's name, before duplicates get `_1`. A
   * subquery exposes its columns to the outer query by these names, the first one winning.
   */
  readonly fieldName: string;
  /**
   * A tag column 1.x adds after top(x, tag, ..., N) when it writes the rows: an outer query
   * reads it by name, but its `*` does not list it (the subquery's fields are its calls).
   */
  readonly selectorTag?: true;
}

export type QueryShape = 'raw' | 'aggregate';

export interface Projection {
  /** `time`, or its alias (`SELECT time AS t, ...`). */
  readonly timeName: string;
  readonly columns: readonly Column[];
  readonly shape: QueryShape;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Is `name` a tag (true) or a field (false) for these sources; explicit hints win. */
export function isTag(name: string, hint: string | null, schema: SchemaInfo): boolean {
  if (hint === 'tag') return true;
  if (hint === 'field' || (hint !== null && hint !== 'tag')) return false;
  return !schema.fields.has(name) && schema.tags.has(name);
}

function wildcardMembers(type: 'field' | 'tag' | null, schema: SchemaInfo, excludeTags: ReadonlySet<string>): Expr[] {
  const out: { name: string; tag: boolean }[] = [];
  // An inner query's tag columns are fields of the subquery that 1.x types as tags: `*::tag` lists them, `*::field` does not.
  const listed = (f: string) => !schema.unlisted?.has(f) && (type === null || (type === 'tag') === (schema.fromTags?.has(f) ?? false));
  for (const f of schema.fields.keys()) if (listed(f)) out.push({ name: f, tag: false });
  if (type !== 'tag') for (const f of schema.untyped ?? []) if (!schema.unlisted?.has(f)) out.push({ name: f, tag: false });
  // A tag may share a field's name: 1.x lists both (the tag after the field, as `day_1`).
  if (type !== 'field') for (const t of schema.tags) if (!excludeTags.has(t)) out.push({ name: t, tag: true });
  out.sort((a, b) => byteOrder(a.name, b.name));
  return out.map((m) => ({ kind: 'VarRef', name: m.name, type: m.tag ? 'tag' : 'field' }));
}

/** The call holding the field argument of a chain like derivative(mean(x)): the innermost one. */
function innermostCall(call: Call): Call {
  let c = call;
  while (c.args[0]?.kind === 'Call') c = c.args[0];
  return c;
}

/** `call` with its innermost call's first argument replaced by `arg`. */
function withFieldArg(call: Call, arg: Expr): Call {
  const first = call.args[0];
  const inner = first?.kind === 'Call' ? withFieldArg(first, arg) : arg;
  return { ...call, args: [inner, ...call.args.slice(1)] };
}

const isPattern = (e: Expr | undefined): boolean => e?.kind === 'Wildcard' || e?.kind === 'Regex';

/**
 * 1.x RewriteFields for a call over `*` or a regex, also inside other calls
 * (`derivative(mean(*))`): one column per matching field the innermost function accepts,
 * named `<alias or outer function>_<field>`. top()/bottom() are left for their own check.
 */
function expandCall(call: Call, alias: string | null, schema: SchemaInfo): { expr: Expr; alias: string }[] | null {
  const inner = innermostCall(call);
  const arg = inner.args[0];
  const name = inner.name.toLowerCase();
  if (name === 'distinct' && isPattern(arg)) throw new QueryError('expected field argument in distinct()');
  if (!arg || !isPattern(arg) || name === 'top' || name === 'bottom') return null;
  const re = arg.kind === 'Regex' ? compileRegex(arg.source) : null;
  const accepted = ACCEPTED_TYPES[name];
  const names = [...schema.fields.entries()]
    .filter(([n, t]) => (!re || re.test(n)) && (!accepted || accepted.includes(t)) && !schema.fromTags?.has(n) && !schema.unlisted?.has(n))
    .map(([n]) => n)
    .sort(byteOrder);
  return names.map((n) => ({ expr: withFieldArg(call, { kind: 'VarRef', name: n, type: null }), alias: `${alias ?? call.name}_${n}` }));
}

/** 1.x refuses `*` or a regex inside an expression (`mean(*) + 1`): only a bare call expands. */
/** `* + 1`, `x * *`: a wildcard as an operand of arithmetic (not inside a call). */
function wildcardOperand(e: Expr): boolean {
  if (e.kind === 'Binary') return e.lhs.kind === 'Wildcard' || e.rhs.kind === 'Wildcard' || wildcardOperand(e.lhs) || wildcardOperand(e.rhs);
  return e.kind === 'Unary' && (e.expr.kind === 'Wildcard' || wildcardOperand(e.expr));
}

function refusePatternInExpression(e: Expr): void {
  const held = callsIn(e).find((c) => isPattern(c.args[0]));
  if (!held) return;
  throw new QueryError(`unsupported expression with ${held.args[0]!.kind === 'Wildcard' ? 'wildcard' : 'regex field'}: ${held.name}()`);
}

/** 1.x Field.Name(): alias, function name, variable name, or the names inside an expression. */
export function exprName(e: Expr): string {
  switch (e.kind) {
    case 'Call':
      return e.name;
    case 'VarRef':
      return e.name;
    case 'Distinct':
      return 'distinct';
    case 'Binary': {
      const parts = [exprName(e.lhs), exprName(e.rhs)].filter((x) => x !== '');
      return parts.join('_');
    }
    case 'Unary':
      return exprName(e.expr);
    default:
      return '';
  }
}

/**
 * 1.x SelectStatement.ColumnNames(): explicit aliases are taken as written (duplicates too);
 * generated names then get `_1`, `_2`, ... where they collide with an alias or each other.
 */
export function columnNames(cols: readonly { expr: Expr; alias: string | null }[]): string[] {
  const out: (string | undefined)[] = cols.map((c) => c.alias ?? undefined);
  const seen = new Map<string, number>();
  for (const a of out) if (a !== undefined) seen.set(a, 1);
  return cols.map((c, i) => {
    const alias = out[i];
    if (alias !== undefined) return alias;
    let name = exprName(c.expr);
    let count = seen.get(name);
    if (count !== undefined) {
      for (;;) {
        const candidate = `${name}_${count}`;
        if (!seen.has(candidate)) {
          seen.set(name, count + 1);
          name = candidate;
          break;
        }
        count++;
      }
    }
    seen.set(name, (seen.get(name) ?? 0) + 1);
    return name;
  });
}

function callsIn(e: Expr, out: Call[] = []): Call[] {
  if (e.kind === 'Call') {
    out.push(e);
    for (const a of e.args) callsIn(a, out);
  } else if (e.kind === 'Binary') {
    callsIn(e.lhs, out);
    callsIn(e.rhs, out);
  } else if (e.kind === 'Unary') callsIn(e.expr, out);
  return out;
}

export function analyzeProjection(allFields: readonly Field[], schema: SchemaInfo, dimensionTags: ReadonlySet<string>, groupsByTime: boolean): Projection {
  return memoProjection(allFields, schema, dimensionTags, groupsByTime, () => analyze(allFields, schema, dimensionTags, groupsByTime));
}

function analyze(allFields: readonly Field[], schema: SchemaInfo, dimensionTags: ReadonlySet<string>, groupsByTime: boolean): Projection {
  // 1.x removes `time` from the field list; its alias (if any) names the time column.
  let timeName = 'time';
  const fields: Field[] = [];
  for (const f of allFields) {
    if (f.expr.kind === 'VarRef' && f.expr.name === 'time') timeName = f.alias ?? 'time';
    else {
      const expr = foldConstantMath(f.expr);
      fields.push(expr === f.expr ? f : { ...f, expr });
    }
  }
  if (fields.length === 0) throw new QueryError('at least 1 non-time field must be queried');
  // 1.x reduces each field before it compiles it, and type-checks the reduced field (below)
  const reducedFields: Expr[] = [];
  for (const f of fields) {
    if (wildcardOperand(f.expr)) throw new QueryError('unable to use wildcard in a binary expression');
    refuseRegexBesideLiteral(f.expr);
    reducedFields.push(reduceLiteralPairs(f.expr));
    if (!hasVariable(f.expr)) throw new QueryError('field must contain at least one variable');
  }
  const expanded: { expr: Expr; alias: string | null; selectorTag?: true }[] = [];
  for (const f of fields) {
    const e = f.expr;
    if (e.kind === 'Wildcard') for (const m of wildcardMembers(e.type, schema, dimensionTags)) expanded.push({ expr: m, alias: null });
    else if (e.kind === 'Regex') {
      const re = compileRegex(e.source);
      for (const m of wildcardMembers(null, schema, dimensionTags)) if (m.kind === 'VarRef' && re.test(m.name)) expanded.push({ expr: m, alias: null });
    } else if (e.kind === 'Call') {
      const calls = expandCall(e, f.alias, schema);
      if (calls) for (const c of calls) expanded.push({ expr: c.expr, alias: c.alias });
      else {
        expanded.push({ expr: e, alias: f.alias });
        // top(x, tag1, tag2, N) / bottom(...): 1.x adds a column per tag after the call.
        const name = e.name.toLowerCase();
        if ((name === 'top' || name === 'bottom') && e.args.length > 2) {
          for (const a of e.args.slice(1, -1)) if (a.kind === 'VarRef') expanded.push({ expr: { kind: 'VarRef', name: a.name, type: 'tag' }, alias: null, selectorTag: true });
        }
      }
    } else if (e.kind === 'Distinct') {
      expanded.push({ expr: { kind: 'Call', name: 'distinct', args: [{ kind: 'VarRef', name: e.name, type: null }] }, alias: f.alias });
    } else {
      refusePatternInExpression(e);
      expanded.push({ expr: e, alias: f.alias });
    }
  }
  let aggregates = 0;
  let rawRefs = 0;
  // 1.x compiledStatement: FunctionCalls (every non-math call but count()'s distinct()),
  // OnlySelectors (cleared by any aggregate that is not max/min/first/last/percentile/top/bottom).
  let functionCalls = 0;
  // A call over `*` or a regex is not a selector here (1.x compiles it before expanding it).
  let onlySelectors = !fields.some((f) => f.expr.kind === 'Call' && !isMath(f.expr.name.toLowerCase()) && isPattern(f.expr.args[0]));
  let hasDistinct = false;
  let topBottom: string | undefined;
  for (const { expr } of expanded) {
    const calls = callsIn(expr);
    if (expr.kind === 'Call' && expr.name.toLowerCase() === 'distinct') hasDistinct = true;
    for (const c of calls) {
      const name = c.name.toLowerCase();
      checkCall(c, groupsByTime);
      if (!isMath(name) && !(name === 'distinct' && calls.some((o) => o.name.toLowerCase() === 'count' && o.args[0] === c))) functionCalls++;
      if (name === 'top' || name === 'bottom') topBottom ??= name;
      if (AGGREGATES.has(name)) aggregates++;
      if ((AGGREGATES.has(name) || TRANSFORMS.has(name)) && !ONLY_SELECTORS.has(name)) onlySelectors = false;
    }
    if (hasRawRef(expr)) rawRefs++;
  }
  // 1.x validateFields, in its order.
  if (topBottom !== undefined && functionCalls > 1) throw new QueryError(`selector function ${topBottom}() cannot be combined with other functions`);
  if (hasDistinct && (functionCalls !== 1 || rawRefs > 0)) throw new QueryError('aggregate function distinct() cannot be combined with other functions or fields');
  const aggregate = aggregates > 0;
  // 1.x HasAuxiliaryFields: a transform of a raw field (derivative(x), x) is no selector either.
  if ((aggregate || !onlySelectors) && rawRefs > 0) {
    if (!onlySelectors) throw new QueryError('mixing aggregate and non-aggregate queries is not supported');
    if (functionCalls > 1) throw new QueryError('mixing multiple selector functions with tags or fields is not supported');
  }
  if (!aggregate && groupsByTime) throw new QueryError('GROUP BY requires at least one aggregate function');
  // 1.x checks operand types after validating the fields (`host * free, mean(x)` is mixing first).
  for (const e of reducedFields) checkOperandTypes(e, schema);
  // 1.x rewrites the fields (expanding wildcards and regexes) after compiling them
  for (const f of fields) refuseRegexInExpression(f.expr, schema);
  const names = columnNames(expanded);
  const columns = expanded.map((x, i): Column => ({ name: names[i]!, expr: x.expr, fieldName: x.alias ?? exprName(x.expr), ...(x.selectorTag && { selectorTag: true }) }));
  return { timeName, columns, shape: aggregate ? 'aggregate' : 'raw' };
}

/**
 * A field or tag (one `which` accepts, any by default) read outside any aggregate or transform
 * (math functions read their arguments as they are).
 */
export function hasRawRef(e: Expr, which: (ref: VarRef) => boolean = () => true): boolean {
  if (e.kind === 'VarRef') return which(e);
  if (e.kind === 'Binary') return hasRawRef(e.lhs, which) || hasRawRef(e.rhs, which);
  if (e.kind === 'Unary') return hasRawRef(e.expr, which);
  return e.kind === 'Call' && isMath(e.name.toLowerCase()) && e.args.some((a) => hasRawRef(a, which));
}

export { callsIn };

/**
 * EXPLAIN's plan nodes: the storage reads a SELECT makes, one per call of the statement and
 * source (or one per source for a raw statement), as 1.x's explain iterator creator records
 * them. Each node names the expression storage is asked for, typed as after 1.x's field
 * rewrite (`mean(v::float)`), and the auxiliary fields read beside it.
 *
 * Which expression a call asks for follows 1.x's select builder: count/min/max/sum/first/last/
 * mean are pushed down to storage as calls; every other aggregate (median, percentile, mode,
 * stddev, spread, distinct, sample, integral, top/bottom without tags) and every transform of
 * a raw field reads the raw field; top()/bottom() with tag arguments read max()/min() per tag
 * set with those tags as auxiliary fields; a transform or math function of an aggregate reads
 * that aggregate.
 */
import type { FieldType } from '../../../engine/index.js';
import type { Call, DataType, Expr, VarRef } from '../../ast/nodes.js';
import { walkExpr } from '../../ast/walk.js';
import { isMath } from '../../plan/functions.js';
import { TYPE_NAMES } from '../../plan/operand-types.js';
import { isTag, type Projection, type SchemaInfo } from '../../plan/projection.js';

/** The reads of one node: what the storage is asked for, before its cost is known. */
export interface NodeReads {
  /** The typed expression (`mean(v::float)`, `v::float`), null for a raw statement's read. */
  readonly expr: string | null;
  /** Typed auxiliary fields, sorted (`host::tag, v::float`). */
  readonly aux: readonly string[];
  /** The field the expression reads, when it is a known field. */
  readonly field: string | undefined;
  /** Fields among the auxiliary ones (tags cost nothing to read). */
  readonly auxFields: readonly string[];
}

const PUSHED_DOWN: ReadonlySet<string> = new Set(['count', 'min', 'max', 'sum', 'first', 'last', 'mean']);

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface TypedRef {
  readonly text: string;
  readonly name: string;
  readonly isField: boolean;
  readonly known: boolean;
}

/** The type 1.x's field rewrite gives a reference: a cast (`v::integer`) as written, else the stored one; null when unknown. */
export function refDataType(ref: VarRef, schema: SchemaInfo): DataType | null {
  if (isTag(ref.name, ref.type, schema)) return 'tag';
  if (ref.type !== null && ref.type !== 'field' && ref.type !== 'tag') return ref.type;
  const stored: FieldType | undefined = schema.fields.get(ref.name);
  return stored === undefined ? null : TYPE_NAMES[stored];
}

function typedRef(ref: VarRef, schema: SchemaInfo): TypedRef {
  const type = refDataType(ref, schema);
  return { text: type ? `${ref.name}::${type}` : ref.name, name: ref.name, isField: type !== 'tag' && schema.fields.has(ref.name), known: type !== null };
}

function refOf(e: Expr | undefined): VarRef | undefined {
  if (e?.kind === 'VarRef') return e;
  if (e?.kind === 'Distinct') return { kind: 'VarRef', name: e.name, type: null };
  return undefined;
}

/** The storage read of one call, or undefined when it reads nothing (a call over literals). */
function callRead(call: Call, schema: SchemaInfo): { expr: string; field?: string; tags?: TypedRef[] } | undefined {
  const name = call.name.toLowerCase();
  const arg = call.args[0];
  if (arg?.kind === 'Call') return callRead(arg, schema);
  const ref = refOf(arg);
  if (!ref) return undefined;
  const typed = typedRef(ref, schema);
  const field = typed.isField ? ref.name : undefined;
  if (PUSHED_DOWN.has(name) && arg?.kind === 'VarRef') return { expr: `${name}(${typed.text})`, field };
  if ((name === 'top' || name === 'bottom') && call.args.length > 2) {
    const tags = call.args.slice(1, -1).flatMap((a) => (a.kind === 'VarRef' ? [typedRef({ ...a, type: 'tag' }, schema)] : []));
    return { expr: `${name === 'top' ? 'max' : 'min'}(${typed.text})`, field, tags };
  }
  return { expr: typed.text, field };
}

/** The calls of a column whose reads are nodes (math and transforms are looked through by callRead). */
function outerCalls(e: Expr): Call[] {
  const out: Call[] = [];
  walkExpr(e, (n) => {
    if (n.kind !== 'Call') return true;
    const name = n.name.toLowerCase();
    if (isMath(name) && !n.args.some((a) => a.kind === 'Call')) return true; // abs(v): a raw read
    out.push(n);
    return false;
  });
  return out;
}

function refsOutsideCalls(e: Expr, out: VarRef[]): void {
  walkExpr(e, (n) => {
    if (n.kind === 'VarRef' && n.name.toLowerCase() !== 'time') out.push(n);
    return !(n.kind === 'Call' && !isMath(n.name.toLowerCase()));
  });
}

function sortedUnique(refs: readonly TypedRef[]): TypedRef[] {
  const seen = new Map<string, TypedRef>();
  for (const r of refs) if (!seen.has(r.text)) seen.set(r.text, r);
  return [...seen.values()].sort((a, b) => byteOrder(a.text, b.text));
}

/** The reads of one source of a compiled statement: one per call (aggregates), one for all columns (raw). */
export function nodeReads(projection: Projection, schema: SchemaInfo): NodeReads[] {
  const loose: VarRef[] = [];
  for (const c of projection.columns) refsOutsideCalls(c.expr, loose);
  const looseTyped = loose.map((r) => typedRef(r, schema));
  const calls = projection.columns.flatMap((c) => outerCalls(c.expr));
  // A raw statement reads its columns together, unless they are transforms of raw fields
  // (derivative(v), moving_average(v, 2)): those read the field as a call would.
  if (projection.shape === 'raw' && calls.length === 0) {
    const aux = sortedUnique(looseTyped);
    // 1.x creates no read when none of the columns is a field or tag it knows.
    if (!aux.some((r) => r.known)) return [];
    return [{ expr: null, aux: aux.map((r) => r.text), field: undefined, auxFields: aux.filter((r) => r.isField).map((r) => r.name) }];
  }
  const out: NodeReads[] = [];
  for (const call of calls) {
    const read = callRead(call, schema);
    if (!read) continue;
    const aux = sortedUnique([...(read.tags ?? []), ...looseTyped]);
    out.push({ expr: read.expr, aux: aux.map((r) => r.text), field: read.field, auxFields: aux.filter((r) => r.isField).map((r) => r.name) });
  }
  return out;
}

/** Field names a row condition reads (1.x's ExprNames of the per-series filter), tags excluded. */
export function conditionFields(cond: Expr | null, schema: SchemaInfo): string[] {
  if (!cond) return [];
  const out = new Set<string>();
  walkExpr(cond, (n) => {
    if (n.kind === 'VarRef' && n.name.toLowerCase() !== 'time' && !isTag(n.name, n.type, schema) && schema.fields.has(n.name)) out.add(n.name);
  });
  return [...out];
}


/**
 * analyzeProjection() results kept per SELECT field list. Statements of one shape share their
 * field list (the parser's shape cache rebinds only literals: ql/parser/shape-cache.ts), so a
 * new text of a known shape, which misses the plan memo, still finds its projection here as
 * long as it is analyzed against the same schema, GROUP BY tags and time grouping.
 *
 * The schema is compared by content (the planner builds a new one per compile); a field list
 * is immutable AST, and a WeakMap lets its entry go with it. Only successful analyses are kept:
 * an invalid field list throws its error every time.
 */
import type { Field } from '../ast/nodes.js';
import type { Projection, SchemaInfo } from './projection.js';

interface Entry {
  readonly schema: SchemaInfo;
  readonly dimensionTags: ReadonlySet<string>;
  readonly groupsByTime: boolean;
  readonly projection: Projection;
}

const kept = new WeakMap<readonly Field[], Entry>();

function sameSet(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.size !== b.size) return false;
  for (const k of a) if (!b.has(k)) return false;
  return true;
}

function sameSchema(a: SchemaInfo, b: SchemaInfo): boolean {
  if (a === b) return true;
  if (a.fields.size !== b.fields.size || !sameSet(a.tags, b.tags) || !sameSet(a.fromTags ?? EMPTY, b.fromTags ?? EMPTY) || !sameSet(a.unlisted ?? EMPTY, b.unlisted ?? EMPTY)) return false;
  // Same entries in the same order (cheaper than arguing that no analysis depends on the order).
  const bi = b.fields.entries();
  for (const [k, t] of a.fields) {
    const next = bi.next();
    if (next.done === true || next.value[0] !== k || next.value[1] !== t) return false;
  }
  return true;
}

const EMPTY: ReadonlySet<string> = new Set();

/** `analyze(fields, ...)`, or the projection an earlier call computed for the same inputs. */
export function memoProjection(
  fields: readonly Field[],
  schema: SchemaInfo,
  dimensionTags: ReadonlySet<string>,
  groupsByTime: boolean,
  analyze: () => Projection,
): Projection {
  const e = kept.get(fields);
  if (e !== undefined && e.groupsByTime === groupsByTime && sameSchema(e.schema, schema) && sameSet(e.dimensionTags, dimensionTags)) return e.projection;
  const projection = analyze();
  kept.set(fields, { schema, dimensionTags, groupsByTime, projection });
  return projection;
}

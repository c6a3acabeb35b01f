/**
 * Calls over a subquery's own GROUP BY tag (`SELECT count(g), distinct(g) FROM (SELECT max(v)
 * ... GROUP BY time(10s), g)`). 1.x's subquery builder looks a call's variable up among the
 * inner fields and then among the inner dimensions (query/subquery.go mapAuxField: a TagMap),
 * so the call reads the tag's value on every inner row: count() counts the inner rows,
 * distinct() lists the tag values, and a numeric call fails on the string iterator
 * (`unsupported max iterator type: *query.stringInterruptIterator`). Such a name is a string
 * field of the subquery for the statement whose calls read it; `*` does not list it (unlisted),
 * and a raw column naming it stays a tag (select-raw.ts everyRow).
 */
import { FieldType, type Batch, type Cursor } from '../../engine/index.js';
import type { Expr, SelectStatement } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';

export interface TagFields {
  readonly types: ReadonlyMap<string, FieldType>;
  readonly unlisted: ReadonlySet<string>;
  /** The group tags read as fields. */
  readonly tags: ReadonlySet<string>;
}

/** The names a call of the statement reads its values from (the first argument; count(distinct(x))'s x). */
export function calledNames(stmt: SelectStatement): Set<string> {
  const out = new Set<string>();
  const visit = (e: Expr): void => {
    if (e.kind !== 'Call') return;
    const arg = e.args[0];
    if (arg?.kind === 'VarRef') out.add(arg.name);
    else if (arg?.kind === 'Distinct') out.add(arg.name);
  };
  for (const f of stmt.fields) walkExpr(f.expr, visit);
  return out;
}

/** `types` and `unlisted` with the group tags `called` names and the inner fields do not hold. */
export function tagFields(types: ReadonlyMap<string, FieldType>, unlisted: ReadonlySet<string>, groupTags: ReadonlySet<string>, called: ReadonlySet<string> | undefined): TagFields {
  const tags = new Set([...(called ?? [])].filter((n) => groupTags.has(n) && !types.has(n)));
  if (tags.size === 0) return { types, unlisted, tags };
  const withTags = new Map(types);
  for (const t of tags) withTags.set(t, FieldType.String);
  return { types: withTags, unlisted: new Set([...unlisted, ...tags]), tags };
}

/** The series' tag value on every row `rows` (a subquery's every-row cursor) holds. */
export function tagCursor(rows: Cursor | undefined, value: string): Cursor {
  const asTag = (b: Batch | null): Batch | null => b && { base: b.base, offsets: b.offsets, column: { type: FieldType.String, values: new Array<string>(b.offsets.length).fill(value) } };
  return {
    type: FieldType.String,
    next: async () => asTag(rows ? await rows.next() : null),
    nextNow: () => {
      if (!rows) return null;
      const b = rows.nextNow?.();
      return b === undefined ? undefined : asTag(b);
    },
    close: () => rows?.close(),
  };
}

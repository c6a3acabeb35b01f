/**
 * The statement as 1.x's EXPLAIN ANALYZE labels it: after its field rewrite, every reference
 * typed (`v::float`, `host::tag`), wildcards expanded, sources qualified with their database and
 * retention policy, and the time conditions taken out of WHERE.
 */
import type { Expr, Field, SelectStatement, Source } from '../../ast/nodes.js';
import { printSelect } from '../../ast/print.js';
import { rewriteExpr } from '../../ast/walk.js';
import type { SchemaInfo } from '../../plan/projection.js';
import type { QueryContext } from '../context.js';
import { measurementTarget } from '../measurement-target.js';
import { refDataType } from './nodes.js';
import type { Compile } from './plan.js';

const NO_SCHEMA: SchemaInfo = { fields: new Map(), tags: new Set() };

function typed(e: Expr, schema: SchemaInfo): Expr {
  return rewriteExpr(e, (n) => {
    if (n.kind !== 'VarRef' || n.name.toLowerCase() === 'time') return n;
    const type = refDataType(n, schema);
    return type === null ? n : { ...n, type };
  });
}

async function typedStatement(stmt: SelectStatement, ctx: QueryContext, compile: Compile): Promise<SelectStatement> {
  const compiled = await compile(stmt);
  const schema = compiled?.plan.schema ?? NO_SCHEMA;
  const expands = stmt.fields.some((f) => f.expr.kind === 'Wildcard' || f.expr.kind === 'Regex' || (f.expr.kind === 'Call' && f.expr.args.some((a) => a.kind === 'Wildcard' || a.kind === 'Regex')));
  const fields: Field[] = compiled && expands
    ? compiled.plan.projection.columns.map((c) => ({ kind: 'Field', expr: typed(c.expr, schema), alias: null }))
    : stmt.fields.map((f) => ({ ...f, expr: typed(f.expr, schema) }));
  const sources: Source[] = [];
  for (const src of stmt.sources as readonly Source[]) {
    if (src.kind === 'SubQuery') sources.push({ ...src, statement: await typedStatement(src.statement, ctx, compile) });
    else {
      const { db, rp } = measurementTarget(src, ctx);
      sources.push({ ...src, database: db, retentionPolicy: rp });
    }
  }
  const rest = compiled ? compiled.plan.time.rest : stmt.condition;
  return { ...stmt, fields, sources, condition: rest ? typed(rest, schema) : null };
}

export async function typedStatementText(stmt: SelectStatement, ctx: QueryContext, compile: Compile): Promise<string> {
  return printSelect(await typedStatement(stmt, ctx, compile));
}

/**
 * EXPLAIN and EXPLAIN ANALYZE in 1.x's layouts.
 *
 * EXPLAIN prints one paragraph per storage read (plan.ts) with its cost; 1.x prints them in Go
 * map order, which changes from run to run, Strata in the order of the fields. EXPLAIN ANALYZE
 * runs the statement (its rows are dropped) and prints 1.x's tree: the times of planning and
 * execution, the typed statement, one iterator_scanner per read and one create_iterator per
 * shard that holds data of the read, with the cursors it opens. Where 1.x counts the blocks it
 * decoded, Strata prints what the read covers (cached values, files, blocks and their bytes):
 * decoded blocks are shared by queries through the block cache and are not counted per query.
 */
import { goDurationString } from '../../ast/duration.js';
import type { SelectStatement } from '../../ast/nodes.js';
import type { ResultSeries } from '../../result.js';
import { shardId } from '../meta/show-shards.js';
import type { QueryContext } from '../context.js';
import { executeSelect } from '../select.js';
import { compileOnce, planNodes, type PlanNode } from './plan.js';
import { typedStatementText } from './typed-statement.js';

function paragraph(n: PlanNode): string[] {
  const lines = [`EXPRESSION: ${n.reads.expr ?? '<nil>'}`];
  if (n.reads.aux.length > 0) lines.push(`AUXILIARY FIELDS: ${n.reads.aux.join(', ')}`);
  const c = n.cost;
  lines.push(`NUMBER OF SHARDS: ${c.shards}`, `NUMBER OF SERIES: ${c.series}`, `CACHED VALUES: ${c.cachedValues}`, `NUMBER OF FILES: ${c.files}`, `NUMBER OF BLOCKS: ${c.blocks}`, `SIZE OF BLOCKS: ${c.blockBytes}`);
  return lines;
}

export async function explain(stmt: SelectStatement, ctx: QueryContext): Promise<ResultSeries[]> {
  const nodes = await planNodes(stmt, ctx);
  const rows = nodes.flatMap((n, i) => (i > 0 ? ['', ...paragraph(n)] : paragraph(n)));
  // 1.x trims the plan text: a statement without reads prints one empty row.
  return [{ columns: ['QUERY PLAN'], values: (rows.length > 0 ? rows : ['']).map((r) => [r]) }];
}

/** A tree node: a label line and its children, drawn with 1.x's box characters. */
interface TreeNode {
  readonly text: string;
  readonly children: readonly TreeNode[];
}

const leaf = (text: string): TreeNode => ({ text, children: [] });

function draw(node: TreeNode, prefix: string, out: string[]): void {
  node.children.forEach((c, i) => {
    const last = i === node.children.length - 1;
    out.push(`${prefix}${last ? '└── ' : '├── '}${c.text}`);
    draw(c, prefix + (last ? '    ' : '│   '), out);
  });
}

const ns = (start: bigint, end: bigint) => goDurationString(end - start);

function scanner(n: PlanNode): TreeNode {
  const label = n.reads.expr === null ? `auxiliary_fields: ${n.reads.aux.join(', ')}` : `expr: ${n.reads.expr}`;
  const iterators = n.perShard
    .filter((s) => s.cost.cachedValues + s.cost.blocks > 0)
    .map((s): TreeNode => ({
      text: 'create_iterator',
      children: [
        { text: 'labels', children: [leaf(`measurement: ${s.measurement}`), leaf(`shard_id: ${shardId(s.shard.db, s.shard.rp, s.shard.startSec)}`)] },
        leaf(`cursors_ref: ${s.cursors.ref}`),
        leaf(`cursors_aux: ${s.cursors.aux}`),
        leaf(`cursors_cond: ${s.cursors.cond}`),
        leaf(`cached_values: ${s.cost.cachedValues}`),
        leaf(`files: ${s.cost.files}`),
        leaf(`blocks: ${s.cost.blocks}`),
        leaf(`blocks_size_bytes: ${s.cost.blockBytes}`),
      ],
    }));
  return { text: 'iterator_scanner', children: [{ text: 'labels', children: [leaf(label)] }, ...iterators] };
}

export async function explainAnalyze(stmt: SelectStatement, ctx: QueryContext): Promise<ResultSeries[]> {
  const t0 = process.hrtime.bigint();
  const compile = compileOnce(ctx);
  const nodes = await planNodes(stmt, ctx, compile);
  const statement = await typedStatementText(stmt, ctx, compile);
  const t1 = process.hrtime.bigint();
  // Run to the end, keeping no rows: what the statement costs, not what it answers.
  await executeSelect(stmt, ctx, { chunkSize: 10_000, push: () => undefined });
  const t2 = process.hrtime.bigint();
  const cursor: TreeNode = {
    text: 'build_cursor',
    children: [{ text: 'labels', children: [leaf(`statement: ${statement}`)] }, ...nodes.map(scanner)],
  };
  const root: TreeNode = {
    text: '.',
    children: [{ text: 'select', children: [leaf(`execution_time: ${ns(t1, t2)}`), leaf(`planning_time: ${ns(t0, t1)}`), leaf(`total_time: ${ns(t0, t2)}`), cursor] }],
  };
  const lines = ['.'];
  draw(root, '', lines);
  lines.push('');
  return [{ columns: ['EXPLAIN ANALYZE'], values: lines.map((l) => [l]) }];
}

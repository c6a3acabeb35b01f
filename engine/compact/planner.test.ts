import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FULL_LEVEL, planCompactions } from './planner.js';
import type { PlanFile, PlannerOptions } from './planner.js';

/** `gen-seq:level` with optional `!` for tombstoned, e.g. `7-2:1!`. */
function f(spec: string): PlanFile {
  const m = /^(\d+)-(\d+):(\d+)(!?)$/.exec(spec);
  if (!m) throw new TypeError(`bad spec ${spec}`);
  const [generation, sequence, level] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return { path: `/s/${spec}`, id: { generation, sequence }, level, size: 100, tombstoned: m[4] === '!' };
}

const HOT: PlannerOptions = { nowMs: 1_000, lastWriteMs: 900, coldAfterMs: 500 };
const COLD: PlannerOptions = { nowMs: 1_000, lastWriteMs: 400, coldAfterMs: 500 };

/** Plans as `kind L<level> <inputs…> -> gen-seq`. */
function show(files: string[], options: PlannerOptions): string[] {
  return planCompactions(files.map(f), options).map(
    (p) => `${p.kind} L${p.level} ${p.inputs.map((i) => `${i.id.generation}-${i.id.sequence}`).join(' ')} -> ${p.output.generation}-${p.output.sequence}`,
  );
}

const cases: { name: string; files: string[]; options?: PlannerOptions; want: string[] }[] = [
  { name: 'no files', files: [], want: [] },
  { name: 'three level-0 files: not yet', files: ['1-1:0', '2-1:0', '3-1:0'], want: [] },
  { name: 'four level-0 files: one level-1 file named after the newest', files: ['1-1:0', '2-1:0', '3-1:0', '4-1:0'], want: ['level L1 1-1 2-1 3-1 4-1 -> 4-2'] },
  {
    name: 'nine level-0 files: two groups, oldest first, one left over',
    files: ['1-1:0', '2-1:0', '3-1:0', '4-1:0', '5-1:0', '6-1:0', '7-1:0', '8-1:0', '9-1:0'],
    want: ['level L1 1-1 2-1 3-1 4-1 -> 4-2', 'level L1 5-1 6-1 7-1 8-1 -> 8-2'],
  },
  {
    name: 'levels 1 and 2 merge into the next level; lower levels planned first',
    files: ['4-2:2', '8-2:2', '12-2:2', '16-2:2', '20-2:1', '24-2:1', '28-2:1', '32-2:1', '33-1:0', '34-1:0', '35-1:0', '36-1:0'],
    want: ['level L1 33-1 34-1 35-1 36-1 -> 36-2', 'level L2 20-2 24-2 28-2 32-2 -> 32-3', 'level L3 4-2 8-2 12-2 16-2 -> 16-3'],
  },
  { name: 'level-3 files are left to full compaction', files: ['4-3:3', '8-3:3', '12-3:3', '16-3:3'], want: [] },
  {
    name: 'contiguity: a newer-level generation between level-0 files breaks the run',
    files: ['1-1:0', '2-1:0', '3-1:0', '6-2:1', '7-1:0', '8-1:0', '9-1:0'],
    want: [],
  },
  {
    name: 'contiguity: the run starts after the interruption',
    files: ['1-1:0', '6-2:1', '7-1:0', '8-1:0', '9-1:0', '10-1:0'],
    want: ['level L1 7-1 8-1 9-1 10-1 -> 10-2'],
  },
  {
    name: 'a generation is taken whole (split outputs), output sequence after its highest',
    files: ['5-2:1', '5-3:1', '9-2:1', '13-2:1', '17-2:1', '17-3:1'],
    want: ['level L2 5-2 5-3 9-2 13-2 17-2 17-3 -> 17-4'],
  },
  {
    name: 'crash leftovers: inputs and output of one generation count as the output level',
    files: ['1-1:0', '2-1:0', '3-1:0', '4-1:0', '4-2:1', '5-1:0', '6-1:0'],
    want: [],
  },
  { name: 'hot shard with tombstoned files: left to level merges', files: ['1-1:0!', '2-1:0'], want: [] },
  { name: 'cold shard, several generations: one full compaction', files: ['4-2:1', '5-1:0', '6-1:0'], options: COLD, want: ['full L4 4-2 5-1 6-1 -> 6-2'] },
  {
    name: 'cold wins over level plans',
    files: ['1-1:0', '2-1:0', '3-1:0', '4-1:0'],
    options: COLD,
    want: ['full L4 1-1 2-1 3-1 4-1 -> 4-2'],
  },
  { name: 'cold, single file: nothing to do', files: ['6-2:1'], options: COLD, want: [] },
  { name: 'cold, one full-level generation split in files: nothing to do', files: ['6-2:4', '6-3:4', '6-4:4'], options: COLD, want: [] },
  { name: 'cold, single file with tombstoned rows: rewritten to purge them', files: ['6-2:4!'], options: COLD, want: ['full L4 6-2 -> 6-3'] },
  { name: 'cold, crash leftover in one generation: merged', files: ['6-1:0', '6-2:1'], options: COLD, want: ['full L4 6-1 6-2 -> 6-3'] },
  {
    name: 'exactly at the cold threshold counts as cold',
    files: ['1-1:0', '2-1:0'],
    options: { nowMs: 1_000, lastWriteMs: 500, coldAfterMs: 500 },
    want: ['full L4 1-1 2-1 -> 2-2'],
  },
  {
    name: 'input order does not matter',
    files: ['4-1:0', '2-1:0', '3-1:0', '1-1:0'],
    want: ['level L1 1-1 2-1 3-1 4-1 -> 4-2'],
  },
];

for (const c of cases) {
  test(`planner: ${c.name}`, () => {
    assert.deepEqual(show(c.files, c.options ?? HOT), c.want);
  });
}

test('planner: group size option and FULL_LEVEL', () => {
  assert.deepEqual(show(['1-1:0', '2-1:0'], { ...HOT, groupSize: 2 }), ['level L1 1-1 2-1 -> 2-2']);
  assert.equal(FULL_LEVEL, 4);
});

test('planner: plans never share inputs and only take adjacent generations', () => {
  const levels = [0, 0, 1, 0, 0, 0, 0, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 3, 2, 2, 2];
  const files = levels.map((level, i) => f(`${i + 1}-${level === 0 ? 1 : 2}:${level}`));
  const plans = planCompactions(files, HOT);
  assert.ok(plans.length >= 3);
  const seen = new Set<string>();
  for (const p of plans) {
    const gens = [...new Set(p.inputs.map((i) => i.id.generation))];
    const all = [...new Set(files.map((x) => x.id.generation))].sort((a, b) => a - b);
    const at = all.indexOf(gens[0]!);
    assert.deepEqual(gens, all.slice(at, at + gens.length), 'adjacent generations');
    for (const i of p.inputs) {
      assert.ok(!seen.has(i.path));
      seen.add(i.path);
    }
  }
});

/**
 * Compaction planning: a pure function from one shard's TSM files to the compactions worth
 * running now. Levels follow InfluxDB tsm1:
 *
 *   level 0        written by a flush (one generation, sequence 1)
 *   levels 1..3    written by a level compaction of LEVEL_GROUP_SIZE level-(N-1) generations
 *   FULL_LEVEL     written by a full compaction of every file of a cold shard
 *
 * The unit of planning is a generation: every file named `<gen>-*.tsm` is taken together or
 * not at all. Split outputs of one compaction share a generation, and crash leftovers (inputs
 * and outputs both present, see file-set.ts) land in the same unit as their outputs, so a plan
 * never names an output after a generation some of whose files stay live.
 *
 * Ordering rule (why inputs must be contiguous): reads merge files in (generation, sequence)
 * order and later files win duplicate timestamps. An output is named after its newest input
 * generation with a higher sequence, so it sorts exactly where its newest input sat. Were a
 * newer generation G skipped between two inputs, the output would sort after G and let older
 * data overwrite G's. Hence a plan only takes a run of adjacent generations.
 */
import type { TsmFileId } from '../tsm/format.js';

/** Level of full-compaction outputs. */
export const FULL_LEVEL = 4;
/** Highest level a level compaction writes; level-3 files only meet again in a full compaction. */
export const MAX_LEVEL_COMPACTED = 3;
/** Generations of one level merged into one file of the next level. */
export const LEVEL_GROUP_SIZE = 4;
/** A shard with no flush for this long is cold (InfluxDB: compact-full-write-cold-duration). */
export const DEFAULT_COLD_AFTER_MS = 4 * 60 * 60 * 1000;

/** What the planner needs to know about one live file. */
export interface PlanFile {
  readonly path: string;
  readonly id: TsmFileId;
  /** Level from the file header. */
  readonly level: number;
  readonly size: number;
  /** Some rows of this file are hidden by a tombstone (they would be purged by a rewrite). */
  readonly tombstoned: boolean;
}

export interface PlannerOptions {
  readonly nowMs: number;
  /** When the shard last received a flushed file. */
  readonly lastWriteMs: number;
  readonly coldAfterMs?: number;
  /** Generations per level compaction (default LEVEL_GROUP_SIZE). */
  readonly groupSize?: number;
}

export interface CompactionPlan {
  readonly kind: 'level' | 'full';
  /** Level written into the outputs' headers. */
  readonly level: number;
  /** In (generation, sequence) order; adjacent generations, each complete. */
  readonly inputs: readonly PlanFile[];
  /** Id of the first output; further outputs (split at maxFileBytes) take sequence + 1, + 2, … */
  readonly output: TsmFileId;
}

/** All files of one generation. */
interface Generation {
  readonly generation: number;
  readonly files: readonly PlanFile[];
  /** Highest level among the files (a crash leftover input counts as its output's level). */
  readonly level: number;
  readonly maxSequence: number;
}

/**
 * Plans for one shard, in the order to run them; their inputs are disjoint. A cold shard that is
 * not already one clean generation gets a single full plan; otherwise level plans, lower levels
 * first (they keep the file count down), oldest generations first. `[]` when nothing is due.
 */
export function planCompactions(files: readonly PlanFile[], options: PlannerOptions): CompactionPlan[] {
  const gens = generations(files);
  if (gens.length === 0) return [];
  const cold = options.nowMs - options.lastWriteMs >= (options.coldAfterMs ?? DEFAULT_COLD_AFTER_MS);
  if (cold && !isFullyCompacted(gens)) return [plan('full', FULL_LEVEL, gens)];
  const size = Math.max(2, options.groupSize ?? LEVEL_GROUP_SIZE);
  const plans: CompactionPlan[] = [];
  for (let level = 0; level < MAX_LEVEL_COMPACTED; level++) {
    let run: Generation[] = [];
    for (const g of gens) {
      if (g.level !== level) {
        run = [];
        continue;
      }
      run.push(g);
      if (run.length === size) {
        plans.push(plan('level', level + 1, run));
        run = [];
      }
    }
  }
  return plans;
}

/** One generation of full-level files without tombstoned rows: a full compaction would be a copy. */
function isFullyCompacted(gens: readonly Generation[]): boolean {
  const [only] = gens;
  if (gens.length !== 1 || !only) return false;
  if (only.files.some((f) => f.tombstoned)) return false;
  return only.files.length === 1 || only.files.every((f) => f.level === FULL_LEVEL);
}

function plan(kind: CompactionPlan['kind'], level: number, gens: readonly Generation[]): CompactionPlan {
  const last = gens[gens.length - 1]!;
  return {
    kind,
    level,
    inputs: gens.flatMap((g) => g.files),
    output: { generation: last.generation, sequence: last.maxSequence + 1 },
  };
}

function generations(files: readonly PlanFile[]): Generation[] {
  const sorted = [...files].sort((a, b) => a.id.generation - b.id.generation || a.id.sequence - b.id.sequence);
  const out: Generation[] = [];
  let i = 0;
  while (i < sorted.length) {
    const generation = sorted[i]!.id.generation;
    let j = i;
    while (j < sorted.length && sorted[j]!.id.generation === generation) j++;
    const group = sorted.slice(i, j);
    out.push({
      generation,
      files: group,
      level: Math.max(...group.map((f) => f.level)),
      maxSequence: group[group.length - 1]!.id.sequence,
    });
    i = j;
  }
  return out;
}

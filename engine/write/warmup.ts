/**
 * The write path's JIT warm-up: generic synthetic bodies (warmup-bodies.ts) written through a
 * scratch engine that shares the real engine's parse and flush workers, before the server
 * listens.
 *
 * Why: a fresh server compiles its write path in three isolates (parse worker, event loop,
 * flush worker) during its first writes: ~170–180 TurboFan compiles, 0.3–0.6 of a core of
 * compiler threads through the first seconds of ingest, on top of the interpreter's slower
 * first passes (perf/README.md, sections 11 and 12). Here V8 gathers the type feedback and
 * compiles that code while nobody waits. The scratch engine keeps its catalog, WAL and TSM
 * files in a directory of its own (the caller's temporary directory), so nothing reaches the
 * user's data, WAL or meta directories, and the scratch directory is removed afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { WriteRequest } from '../engine.js';
import { silentLogger } from '../logger.js';
import type { EngineOptions } from '../options.js';
import { nowTime, toNs } from '../time.js';
import { warmupBodies, type WarmupBody } from './warmup-bodies.js';

/** What the warm-up drives: a scratch engine's write entry points. */
export interface WarmupTarget {
  createDatabase(name: string): Promise<void>;
  write(req: WriteRequest): Promise<number>;
  /** Freeze the caches and encode them (in the flush worker) as a level-0 TSM file. */
  flush(): Promise<void>;
  /** One compaction round: the level-0 files merged (in the flush worker); answers the compactions done. */
  compact(): Promise<number>;
}

export interface WarmupReport {
  readonly bodies: number;
  readonly lines: number;
  readonly compactions: number;
  /** Wall time and this process's CPU time (every thread) spent. */
  readonly ms: number;
  readonly cpuMs: number;
}

/** Bodies in flight at once, as from a few client connections (one per parse slot). */
const CONCURRENCY = 4;
const WARMUP_DB = 'jit_warmup';
/**
 * 24,000 lines in four rounds (a snapshot after each, then one compaction of the four level-0
 * files): 48,000 measured the same CPU per line afterwards and ~11 MiB more peak RSS
 * (perf/README.md, section 12).
 */
const ROUNDS = 4;
const SHAPE = { bodies: 8, linesPerBody: 3000, series: 24, newSeries: 40 } as const;
/** Past this no further round starts (a loaded machine): the warm-up only ever saves time. */
export const WARMUP_DEADLINE_MS = 3000;

/** The scratch engine's options: the real engine's, its directories under `dir`, quiet, no timers. */
export function scratchOptions(o: EngineOptions, dir: string): EngineOptions {
  return {
    ...o,
    walDir: join(dir, 'wal'),
    metaDir: join(dir, 'meta'),
    dataDir: join(dir, 'data'),
    logger: silentLogger,
    flushIntervalSec: 0,
    compaction: { ...o.compaction, intervalMs: 0 },
  };
}

/** Runs the warm-up against the target `open` makes in a fresh directory under `parent`, removed afterwards. */
export async function warmUpInScratch(
  parent: string,
  open: (dir: string) => Promise<WarmupTarget & { close(): Promise<void> }>,
  deadlineMs = WARMUP_DEADLINE_MS,
): Promise<WarmupReport> {
  const dir = await mkdtemp(join(parent, 'strata-jit-warmup-'));
  try {
    const target = await open(dir);
    try {
      const now = nowTime();
      return await warmUpWritePath(target, toNs(now.sec, now.nsec), deadlineMs);
    } finally {
      await target.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `deadlineMs`: no round starts after it (tests pass Infinity to run every round whatever the machine's load). */
export async function warmUpWritePath(target: WarmupTarget, nowNs: bigint, deadlineMs = WARMUP_DEADLINE_MS): Promise<WarmupReport> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // An hour back: one recent shard, as a live agent's points are.
  const bodies = warmupBodies({ ...SHAPE, startNs: nowNs - 3_600_000_000_000n });
  await target.createDatabase(WARMUP_DB);
  const perRound = Math.ceil(SHAPE.bodies / ROUNDS);
  let written = 0;
  let lines = 0;
  for (let round = 0; round < ROUNDS && performance.now() - t0 < deadlineMs; round++) {
    const end = Math.min(SHAPE.bodies, written + perRound);
    const writer = async (): Promise<void> => {
      while (written < end) {
        written++;
        const b: WarmupBody = bodies.next().value!;
        const stored = await target.write({ db: WARMUP_DB, precision: b.precision, body: b.body });
        lines += stored;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, writer));
    await target.flush();
  }
  const compactions = await target.compact();
  const cpu = process.cpuUsage(cpu0);
  return { bodies: written, lines, compactions, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

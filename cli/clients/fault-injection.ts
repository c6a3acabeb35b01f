/**
 * Test support for fault-injection tests (fault-injection*.test.ts): makes the system calls of a
 * running `strata serve` fail, with strace attached to it (`strace -f -p PID -e inject=...`),
 * and keeps the ledger of what a client was told.
 *
 * Fault model: a chosen syscall (fdatasync, fsync, pwrite64, write, rename, unlink, openat, ...)
 * returns an errno (EIO, ENOSPC, ...) without being executed, from the moment strace has
 * attached until it detaches; `paths` narrows it to calls that name (or use an fd of) those
 * exact paths (strace -P). Detaching ends the fault: the disk "comes back". What a real disk
 * adds on top (a failed fsync may have dropped dirty pages, so data written before it may be
 * gone from the page cache: the "fsyncgate" of 2018) is why a caller must never trust bytes
 * written before a failed sync, only rewrite them; the tests check the observable contract:
 * no 204 for a write that failed, no acknowledged point lost, none twice, and a restart after a
 * SIGKILL that succeeds and finds no temp file left behind.
 *
 * Only the strace processes started here are stopped (SIGTERM detaches and leaves the server
 * running).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { executable, http, startServer, stopServer, type Server } from './harness.js';

export const STRACE = '/usr/bin/strace';

/** Why fault-injection tests cannot run here, or false when they can. */
export function straceUnusable(): string | false {
  if (!executable(STRACE)) return 'strace is not installed (.ci/run installs it)';
  // The same kind of call the tests make: an injected fsync error in a followed child.
  const probe = spawnSync(STRACE, ['-f', '-qq', '-o', '/dev/null', '-e', 'inject=fsync:error=EIO:when=3', 'true'], { stdio: 'ignore', timeout: 10_000 });
  if (probe.status !== 0) return `strace cannot trace or inject here (ptrace not allowed?): exit ${probe.status ?? probe.signal}`;
  // The tests attach to a server that is not strace's child, which Yama's ptrace_scope=1 forbids
  // to non-root users: attached, strace runs until the timeout stops it; refused, it exits.
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const attach = spawnSync(STRACE, ['-qq', '-o', '/dev/null', '-p', String(sleeper.pid)], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 1000 });
    if (attach.signal === null) return `strace cannot attach to a running process: ${attach.stderr.toString().trim()}`;
  } finally {
    sleeper.kill('SIGKILL');
  }
  return false;
}

export interface FaultSpec {
  /** Syscalls that fail, e.g. ['fdatasync'] or ['pwrite64', 'write']. */
  readonly calls: readonly string[];
  /** errno name: EIO, ENOSPC, EDQUOT, EROFS ... */
  readonly error: string;
  /** Only calls on these exact paths (strace -P); every call otherwise. */
  readonly paths?: readonly string[];
  /** More calls to record in the trace (on the same paths), not failed. */
  readonly watch?: readonly string[];
  /**
   * strace's `when=`: which calls fail, counted per syscall and per thread (e.g. `3+`: the third
   * and later). Counting is only meaningful where one thread makes the calls (UV_THREADPOOL_SIZE=1).
   */
  readonly when?: string;
}

export interface Fault {
  /** Calls failed so far (lines marked INJECTED in the trace). */
  injected(): number;
  /** The failed calls, as strace printed them. */
  failedCalls(): string[];
  /** Every traced call so far, failed or not. */
  calls(): string[];
  /** Detach: the calls work again. The server keeps running. */
  stop(): Promise<void>;
}

/** Attach strace to `srv` (a server, or a process about to exec one) and make `spec.calls` fail; resolves once every thread is attached. */
export async function injectFault(srv: { readonly child: ChildProcess }, spec: FaultSpec, traceFile: string): Promise<Fault> {
  const pid = srv.child.pid;
  if (pid === undefined) throw new Error('server has no pid');
  const calls = spec.calls.join(',');
  const inject = `inject=${calls}:error=${spec.error}${spec.when === undefined ? '' : `:when=${spec.when}`}`;
  const args = ['-f', '-s', '0', '-o', traceFile, '-e', `trace=${[...spec.calls, ...(spec.watch ?? [])].join(',')}`, '-e', inject];
  for (const p of spec.paths ?? []) args.push('-P', p);
  args.push('-p', String(pid));
  const child: ChildProcess = spawn(STRACE, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`strace did not attach to ${pid}: ${stderr}`)), 10_000);
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      // "Process N attached with M threads" (or "attached" for a single thread).
      if (/Process \d+ attached/.test(stderr)) {
        clearTimeout(timer);
        ok();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`strace exited before attaching to ${pid}: ${stderr}`));
    });
  });
  const traced = (): string[] => {
    try {
      return readFileSync(traceFile, 'utf8').split('\n');
    } catch {
      return [];
    }
  };
  const failedCalls = (): string[] => traced().filter((l) => l.includes('(INJECTED)'));
  let stopped: Promise<void> | undefined;
  return {
    injected: () => failedCalls().length,
    failedCalls,
    calls: traced,
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopped;
    },
  };
}

/** Runs `fn` while `spec` fails calls of `srv` (trace in the server's directory); the fault is gone once this settles. */
export async function withFault<T>(srv: Server, spec: FaultSpec, fn: () => Promise<T>): Promise<{ result: T; fault: Fault }> {
  const fault = await injectFault(srv, spec, join(srv.dir, 'trace'));
  try {
    return { result: await fn(), fault };
  } finally {
    await fault.stop();
  }
}

/** Polls `cond` every 100 ms for up to `ms`; whether it came true. */
export async function waitFor(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; ; ) {
    if (await cond()) return true;
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Leftover temp files (`*.tmp`) anywhere under `dir`. */
export function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'));
}

/** TSM files under `dir`, relative paths. */
export function tsmFiles(dir: string): string[] {
  return readdirSync(join(dir, 'engine'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tsm'));
}

/** A sample of the server's /metrics (0 when absent). */
export async function metric(srv: Server, name: string): Promise<number> {
  const res = await http(srv.port, 'GET', '/metrics');
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(res.body);
  return m ? Number(m[1]) : 0;
}

/**
 * What the client was told: every point (one per unique time, value `time / 1000 + 0.5`) of
 * bodies answered 204 and of the others. Each body is a new series (tag `b`), so every write
 * also adds to the series index and its log.
 */
export class Ledger {
  readonly acked = new Map<number, number>();
  readonly refused = new Map<number, number>();
  readonly answers: { status: number; body: string }[] = [];
  private next = 0;

  constructor(
    readonly db: string,
    private readonly pointsPerBody = 200,
  ) {}

  /** POST one body of fresh points; returns the status. */
  async write(srv: Server): Promise<number> {
    const body = this.next;
    const points = new Map<number, number>();
    const lines: string[] = [];
    for (let i = 0; i < this.pointsPerBody; i++, this.next++) {
      const t = Date.UTC(2024, 0, 1) + this.next * 1000;
      points.set(t, this.next + 0.5);
      lines.push(`m,b=b${body} v=${this.next + 0.5} ${t}`);
    }
    const res = await http(srv.port, 'POST', `/write?db=${this.db}&precision=ms`, lines.join('\n'), {}, 60_000);
    this.answers.push({ status: res.status, body: res.body });
    for (const [t, v] of points) (res.status === 204 ? this.acked : this.refused).set(t, v);
    return res.status;
  }

  /** The tag value (`b`) of body `body` (the `body`th write, from 0): the number of its first point. */
  bodyTag(body: number): string {
    return `b${body * this.pointsPerBody}`;
  }

  /** Times of the points of body `body`. */
  bodyTimes(body: number): Set<number> {
    return new Set(Array.from({ length: this.pointsPerBody }, (_, i) => Date.UTC(2024, 0, 1) + (body * this.pointsPerBody + i) * 1000));
  }

  /** Answers other than 204 so far. */
  refusals(): { status: number; body: string }[] {
    return this.answers.filter((a) => a.status !== 204);
  }

  /**
   * Compare the stored points with the ledger: every acknowledged point with its value, none
   * twice, nothing that was never written. Refused points may be stored or not (a write that
   * failed may have reached the disk all the same, as in 1.x); returns how many are.
   * Acknowledged points at the times in `lost` may be missing (damage destroyed them), not changed.
   */
  async check(srv: Server, when: string, lost: ReadonlySet<number> = new Set()): Promise<{ refusedStored: number }> {
    const q = encodeURIComponent('SELECT v FROM m');
    const res = await http(srv.port, 'GET', `/query?db=${this.db}&epoch=ms&q=${q}`, undefined, {}, 60_000);
    if (res.status !== 200) throw new Error(`${when}: query answered ${res.status} ${res.body.slice(0, 300)}\n${srv.log().slice(-3000)}`);
    const answer = JSON.parse(res.body) as { results: { error?: string; series?: { values: [number, number][] }[] }[] };
    if (answer.results[0]?.error) throw new Error(`${when}: ${answer.results[0].error}`);
    const seen = new Map<number, number>();
    let twice = 0;
    for (const [t, v] of answer.results[0]?.series?.[0]?.values ?? []) {
      if (seen.has(t)) twice++;
      seen.set(t, v);
    }
    const missing = [...this.acked].filter(([t, v]) => seen.get(t) !== v && !(lost.has(t) && !seen.has(t))).length;
    const foreign = [...seen].filter(([t, v]) => this.acked.get(t) !== v && this.refused.get(t) !== v).length;
    const problems: string[] = [];
    if (missing > 0) problems.push(`${missing} of ${this.acked.size} acknowledged points missing or changed`);
    if (twice > 0) problems.push(`${twice} points returned twice`);
    if (foreign > 0) problems.push(`${foreign} stored points never written`);
    if (problems.length > 0) throw new Error(`${when}: ${problems.join('; ')}\n${srv.log().slice(-3000)}`);
    return { refusedStored: [...this.refused.keys()].filter((t) => seen.has(t)).length };
  }
}

/** SIGKILL `srv`, start it again on its directories (no fault) and check the ledger and that no temp file is left. */
export async function restartAfterKill(srv: Server, env: Record<string, string>, t: TestContext, ledger: Ledger): Promise<Server> {
  await stopServer(srv, 'SIGKILL');
  const again = await startServer({ dir: srv.dir, env });
  const { refusedStored } = await ledger.check(again, 'after SIGKILL and restart');
  assert.deepEqual(tempFiles(again.dir), [], 'temp files left after the restart');
  t.diagnostic(`${ledger.acked.size} acknowledged points back after the restart; ${refusedStored} of ${ledger.refused.size} refused points stored`);
  return again;
}

/**
 * Backups in the SIGKILL torture (crash-torture.ts): once a round, at a random moment while the
 * writers load the server, `strata backup` copies the live directories; the backup is then
 * restored into a scratch directory and served by a second server, and each writer's series must
 * hold what it had acknowledged when the backup started, changed only by requests issued while
 * the backup ran (each may or may not be in it). The server may be SIGKILLed while the backup
 * runs: a backup reads files, not the server, and must still be complete and consistent.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MAIN, removeDir, serverEnv, serverRows, startServer, stopServer } from './harness.js';

/** A request a writer issued: the new values of a write, or the time range a DELETE covers. */
export type Issued = { readonly w: string } & ({ readonly kind: 'write'; readonly lines: ReadonlyMap<number, number> } | { readonly kind: 'delete'; readonly lo: number; readonly hi: number });

/** backup and restore bind no port; the configuration only needs a valid one. */
const TOOL_PORT = 8086;

export interface BackupStats {
  backups: number;
  /** Points compared in restored backups. */
  checked: number;
}

export interface BackupDeps {
  readonly dir: string;
  readonly db: string;
  readonly measurement: string;
  readonly env: Record<string, string>;
  /** Each writer's acknowledged points (time ms → value) now, and its request in flight. */
  snapshot(): Map<string, { model: Map<number, number>; pending: Issued | undefined }>;
  readonly port?: number;
}

export class BackupActor {
  readonly stats: BackupStats = { backups: 0, checked: 0 };
  /** Requests issued while a backup runs (undefined between backups: nothing is kept). */
  private journal: Issued[] | undefined;

  constructor(
    private readonly deps: BackupDeps,
    private readonly rand: () => number,
  ) {}

  /** A writer issued `request` (kept only while a backup runs). */
  record(request: Issued | undefined): void {
    if (request) this.journal?.push(request);
  }

  /** One backup in round `round` after a random delay (none when the round ends first); problems go to `failures`. */
  async run(round: number, killed: () => boolean, failures: string[]): Promise<void> {
    await new Promise((r) => setTimeout(r, 100 + Math.floor(this.rand() * 2000)));
    if (killed()) return;
    const start = this.deps.snapshot();
    this.journal = [];
    const out = join(`${this.deps.dir}-backups`, `r${round}`);
    const backup = await strata(['backup', '--output', out], serverEnv(this.deps.dir, TOOL_PORT, this.deps.env));
    const during = this.journal;
    this.journal = undefined;
    if (backup.code !== 0) {
      failures.push(`backup in round ${round} exited ${backup.code ?? backup.signal}: ${backup.stderr.slice(-2000)}`);
      return;
    }
    const scratch = join(`${this.deps.dir}-backups`, `restored-r${round}`);
    const problems = failures.length;
    try {
      const restore = await strata(['restore', '--input', out], serverEnv(scratch, TOOL_PORT, this.deps.env));
      if (restore.code !== 0) {
        failures.push(`restore of the round ${round} backup exited ${restore.code ?? restore.signal}: ${restore.stderr.slice(-2000)}`);
        return;
      }
      const srv = await startServer({ dir: scratch, env: { ...this.deps.env, SERVICE__FLUSH__INTERVAL_SECS: '3600' }, ...(this.deps.port !== undefined && { port: this.deps.port + 1 }) });
      try {
        for (const [w, { model, pending }] of start) {
          const rows = await serverRows(srv, `SELECT v FROM ${this.deps.measurement} WHERE w = '${w}'`, this.deps.db, `backup of round ${round}`);
          const stored = new Map(rows.map((r) => [r[0] as number, r[1] as number]));
          const issued = [...(pending ? [pending] : []), ...during.filter((e) => e.w === w)];
          for (const t of new Set([...model.keys(), ...stored.keys()])) {
            const v = stored.get(t);
            if (v === model.get(t)) continue;
            if (issued.some((e) => (e.kind === 'write' ? e.lines.get(t) === v : v === undefined && t >= e.lo && t < e.hi))) continue;
            failures.push(`backup of round ${round}, ${w} t=${t}: holds ${v ?? 'nothing'}, acknowledged ${model.get(t) ?? 'nothing'} when it started`);
          }
          this.stats.checked += stored.size;
        }
      } finally {
        await stopServer(srv, 'SIGKILL');
      }
      this.stats.backups++;
    } finally {
      // Kept for inspection when the check failed.
      if (failures.length === problems) {
        removeDir(scratch);
        removeDir(out);
      }
    }
  }
}

function strata(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code, signal) => ok({ code, signal, stderr }));
  });
}

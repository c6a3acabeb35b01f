/**
 * A fresh `strata serve` of this build for a benchmark: loopback, its own temp directories,
 * given node flags and SERVICE__ settings; `stop()` ends it (SIGTERM, then SIGKILL after 30 s)
 * and removes the directories.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execPath } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ping } from './influxd.js';
import { serviceDirs } from './dir-server.js';

/** The build this file belongs to: a copied build (for an A/B) starts its own `strata serve`. */
const BUILD = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface StrataServer {
  readonly pid: number;
  readonly port: number;
  /** The server's data directories' parent (`wal/`, `meta/`, `data/`). */
  readonly dir: string;
  stop(): Promise<void>;
}

export interface StrataServerOptions {
  readonly nodeArgs?: readonly string[];
  /** `--cpu-prof` into this directory. */
  readonly cpuProfDir?: string;
  /** Append the server's stdout and stderr here. */
  readonly log?: string;
  /** More SERVICE__ settings. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startStrata(port: number, o: StrataServerOptions = {}): Promise<StrataServer> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-'));
  const env = { ...process.env, ...serviceDirs(dir, port), ...o.env };
  const prof = o.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', o.cpuProfDir] : [];
  const args = [...(o.nodeArgs ?? []), ...prof, join(BUILD, 'cli', 'main.js'), 'serve'];
  const out = o.log === undefined ? 'ignore' : openSync(o.log, 'a');
  const child: ChildProcess = spawn(execPath, args, { env, stdio: ['ignore', out, out] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await ping(port);
  } catch (err) {
    // Not up (a busy port, a failed start): stop the child before removing the directory it was given.
    child.kill('SIGKILL');
    await exited;
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    pid: child.pid!,
    port,
    dir,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(30_000)]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

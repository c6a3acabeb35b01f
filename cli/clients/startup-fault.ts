/**
 * Test support for faults during start-up (fault-injection-startup.test.ts): `strata serve`
 * is started with strace attached before its first instruction, so the injected calls fail
 * while it opens its catalog, WAL, series logs and TSM files, and the fault is detached as soon
 * as the server answers /ping or exits: the "disk" comes back for what follows.
 *
 * How it is attached first: the server's process starts as `sh`, which stops itself
 * (SIGSTOP); strace attaches to the stopped process, and SIGCONT lets it exec node. Attaching
 * (rather than `strace -- node ...`) is what lets the fault end while the server keeps running.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, listensOn, MAIN, ping, serverEnv, type Server } from './harness.js';
import { injectFault, type Fault, type FaultSpec } from './fault-injection.js';

export interface FaultedStart {
  /** The server, when it came up (answering /ping on its port); its fault is detached. */
  readonly server: Server | undefined;
  /** How it ended when it did not come up. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Whether its port ever had a listener of the process (a refusal must leave none behind). */
  readonly listened: boolean;
  /** Its log (stderr) so far. */
  log(): string;
  readonly fault: Fault;
}

/** The one-letter state of process `pid` (R, S, T ...), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Start `strata serve` on `dir` with `spec` failing from its first system call. Resolves once
 * it answers /ping (fault detached, server running) or has exited, at most `timeoutMs` later
 * (then it is killed and this throws).
 */
export async function startUnderFault(dir: string, env: Record<string, string>, spec: FaultSpec, timeoutMs = 60_000): Promise<FaultedStart> {
  const port = await freePort();
  const child = spawn('sh', ['-c', 'kill -STOP $$ && exec "$0" "$@"', process.execPath, MAIN, 'serve'], {
    cwd: dir,
    env: serverEnv(dir, port, env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.on('exit', (code, signal) => ok({ code, signal })));
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((e) => (exit = e));
  const pid = child.pid;
  if (pid === undefined) throw new Error('sh did not start');
  for (const end = Date.now() + 10_000; processState(pid) !== 'T'; ) {
    if (Date.now() > end || exit) throw new Error(`the server's shell did not stop itself (state ${processState(pid)})`);
    await new Promise((r) => setTimeout(r, 10));
  }
  let fault: Fault;
  try {
    fault = await injectFault({ child }, spec, join(dir, 'trace'));
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  process.kill(pid, 'SIGCONT');
  let listened = false;
  let up = false;
  try {
    for (const end = Date.now() + timeoutMs; !exit; ) {
      if (Date.now() > end) throw new Error(`strata serve neither started nor exited within ${timeoutMs} ms:\n${stderr}`);
      if (listensOn(pid, port) === true) listened = true;
      if (listened && (await ping(port)) === 204) {
        up = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    throw err;
  } finally {
    await fault.stop();
  }
  const log = () => stderr;
  if (!up) return { server: undefined, exit: await exited, listened, log, fault };
  return { server: { port, url: `http://127.0.0.1:${port}`, dir, child, log, exited }, exit: undefined, listened, log, fault };
}

/**
 * Small helpers shared by the engine and HTTP benchmarks: batching line protocol into bodies,
 * statistics, TSM byte counts, process peak RSS and the machine's load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { version } from 'node:process';

/** Lines joined by `\n` into bodies of `perBatch` lines each. */
export function batches(lines: Iterable<string>, perBatch: number): Buffer[] {
  const out: Buffer[] = [];
  let cur: string[] = [];
  for (const l of lines) {
    cur.push(l);
    if (cur.length === perBatch) {
      out.push(Buffer.from(cur.join('\n') + '\n'));
      cur = [];
    }
  }
  if (cur.length > 0) out.push(Buffer.from(cur.join('\n') + '\n'));
  return out;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * p) - 1))] ?? NaN;
}

/** Sum of the sizes of files under `dir` (recursively) whose name ends with `suffix`. */
export async function bytesOf(dir: string, suffix: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { bytes, files };
  }
  for (const name of names) {
    const p = join(dir, name);
    const st = await stat(p).catch(() => undefined);
    if (!st) continue;
    if (st.isDirectory()) {
      const sub = await bytesOf(p, suffix);
      bytes += sub.bytes;
      files += sub.files;
    } else if (name.endsWith(suffix)) {
      bytes += st.size;
      files++;
    }
  }
  return { bytes, files };
}

/** Peak resident set (VmHWM) of a process in bytes, or NaN if it is gone. */
export async function vmHwm(pid: number): Promise<number> {
  try {
    const text = await readFile(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+) kB/.exec(text);
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system; all threads, or thread `tid`) a process has used so far in ms; NaN if it is gone. */
export function processCpuMs(pid: number, tid?: string): number {
  const t = cpuTimes(pid, tid);
  return t.user + t.system;
}

function cpuTimes(pid: number, tid?: string): { user: number; system: number } {
  try {
    const fields = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    // after "pid (comm) ", utime and stime are fields 12 and 13 (0-based), in 10 ms clock ticks
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return { user: NaN, system: NaN };
  }
}

/**
 * CPU ms (user, system) per thread (`<comm>/<tid>` from `/proc/<pid>/task`, the main thread as
 * `<comm> (main)`); threads that already exited are not counted.
 */
export function threadCpuMs(pid: number): Map<string, { user: number; system: number }> {
  const out = new Map<string, { user: number; system: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(tid === String(pid) ? `${comm} (main)` : `${comm}/${tid}`, cpuTimes(pid, tid));
    } catch {
      // the thread exited between readdir and read
    }
  }
  return out;
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${version}`;
}

export function load(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

export const MiB = 1024 * 1024;

export function fmt(x: number, digits = 0): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Run `count` workers that pull indexes 0..n-1 from a shared counter. */
export async function pool(n: number, count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, count) }, worker));
}

/** Parse `--key value` flags (and bare `--flag` as "true"). */
export function flags(args: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) {
      // `--node-args=--trace-gc`: a value that itself starts with `--`
      m.set(a.slice(2, eq), a.slice(eq + 1));
      continue;
    }
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) m.set(a.slice(2), 'true');
    else {
      m.set(a.slice(2), v);
      i++;
    }
  }
  return m;
}

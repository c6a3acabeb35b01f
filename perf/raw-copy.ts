/**
 * What a raw copy of a running server's three directories is worth (README "Backup, restore
 * and file tools"): an operator's `cp -r` or `rsync -a` taken under a steady write load whose
 * flushes (every second) and compactions race the copy, instead of `strata backup`. A second
 * server is then started on the copy.
 *
 *   node build/perf/raw-copy.js [--rounds 3] [--tools cp,rsync,slow] [--orders root,wal-first,data-first]
 *
 * `slow` copies file by file in directory order with a 30 ms pause per file, as `cp -r` onto or
 * off an SD card would, so flushes, WAL truncations and compactions happen mid-copy. `root`
 * copies the parent of the three directories; `wal-first` / `data-first` copy them one after the
 * other in that order. Per round: whether the copy starts and takes writes, the batches
 * acknowledged before the copy began that are incomplete in it, batches from during the copy,
 * `strata inspect`'s exit code on the copy, and the copy server's warnings.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { flags } from './bench-util.js';
import { inspectDir, post, startOn } from './dir-server.js';

const f = flags(process.argv.slice(2));
const rounds = Number(f.get('rounds') ?? 3);
const tools = (f.get('tools') ?? 'cp,rsync,slow').split(',');
const orders = (f.get('orders') ?? 'root,wal-first,data-first').split(',');
const DIRS = { 'wal-first': ['wal', 'meta', 'data'], 'data-first': ['data', 'meta', 'wal'] } as Record<string, string[]>;
const port = Number(f.get('port') ?? 19330);
const BATCH = 1000;
const MINUTE = 60_000_000_000n;
/** A multiple of BATCH minutes, so each GROUP BY window holds exactly one batch. */
const BASE = 28_333_000n * MINUTE;

function batch(i: number): string {
  const lines: string[] = [];
  for (let j = 0; j < BATCH; j++) lines.push(`m,host=h${j % 20} v=${i * BATCH + j}i ${BASE + BigInt(i * BATCH + j) * MINUTE}`);
  return lines.join('\n');
}

function run(cmd: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((ok) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => ok({ code, stderr }));
  });
}

/** cp -r in readdir order, pausing after every file; a file removed meanwhile is skipped, as cp reports it. */
async function slowCopy(from: string, to: string, errors: string[]): Promise<void> {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const a = join(from, name);
    const b = join(to, name);
    try {
      if (statSync(a).isDirectory()) await slowCopy(a, b, errors);
      else copyFileSync(a, b);
    } catch {
      errors.push(`vanished: ${a}`);
    }
    await sleep(30);
  }
}

async function copy(tool: string, order: string, src: string, dst: string): Promise<{ codes: (number | null)[]; errors: string }> {
  const parts = DIRS[order] ?? [''];
  const codes: (number | null)[] = [];
  const errors: string[] = [];
  mkdirSync(dst, { recursive: true });
  for (const p of parts) {
    const [a, b] = [join(src, p), join(dst, p)];
    if (tool === 'slow') {
      await slowCopy(a, b, errors);
      codes.push(0);
    } else {
      const r = tool === 'cp' ? await run('cp', ['-r', `${a}/.`, b]) : await run('rsync', ['-a', `${a}/`, `${b}/`]);
      codes.push(r.code);
      if (r.stderr) errors.push(r.stderr.trim());
    }
  }
  return { codes, errors: errors.join(' | ').slice(0, 300) };
}

async function countsPerBatch(port: number, batches: number): Promise<Map<number, number>> {
  const end = BASE + BigInt(batches * BATCH) * MINUTE;
  const q = new URLSearchParams({ db: 'd', epoch: 'ns', q: `SELECT count(v) FROM m WHERE time >= ${BASE} AND time < ${end} GROUP BY time(${BATCH}m) fill(none)` });
  const res = await post(port, `/query?${q.toString()}`);
  const body = JSON.parse(res.body) as { results: { series?: { values: [number, number][] }[]; error?: string }[] };
  if (body.results[0]?.error) throw new Error(body.results[0].error);
  const out = new Map<number, number>();
  for (const [t, c] of body.results[0]?.series?.[0]?.values ?? []) out.set(Number((BigInt(t) - BASE) / MINUTE / BigInt(BATCH)), c);
  return out;
}

const root = mkdtempSync(join(tmpdir(), 'strata-raw-copy-'));
const totals = { rounds: 0, started: 0, lostBefore: 0, inspectDamaged: 0 };
try {
  for (const tool of tools) {
    for (const order of orders) {
      for (let round = 0; round < rounds; round++) {
        const src = join(root, `src-${tool}-${order}-${round}`);
        const dst = `${src}-copy`;
        mkdirSync(src, { recursive: true });
        const server = await startOn(src, port, { SERVICE__FLUSH__INTERVAL_SECS: '1', SERVICE__LOGGING__LEVEL: 'warn' });
        await post(port, '/query?q=CREATE+DATABASE+d');
        let next = 0;
        let stop = false;
        const acked: number[] = [];
        const writer = async () => {
          while (!stop) {
            const i = next++;
            if ((await post(port, '/write?db=d', batch(i))).status === 204) acked.push(i);
          }
        };
        const writers = [writer(), writer()];
        await sleep(3000 + round * 900);
        const before = new Set(acked);
        const t0 = Date.now();
        const copied = await copy(tool, order, src, dst);
        const copyMs = Date.now() - t0;
        const during = acked.filter((i) => !before.has(i));
        stop = true;
        await Promise.all(writers);
        await server.stop();
        const inspect = inspectDir(dst);
        const row: Record<string, unknown> = { tool, order, round, copyMs, toolExit: copied.codes, toolErrors: copied.errors, ackedBefore: before.size, ackedDuringCopy: during.length, inspect: inspect.code };
        try {
          const again = await startOn(dst, port + 1, { SERVICE__LOGGING__LEVEL: 'warn' });
          try {
            const counts = await countsPerBatch(again.port, next);
            row['started'] = true;
            row['lostAckedBefore'] = [...before].filter((i) => counts.get(i) !== BATCH).length;
            row['duringCopyComplete'] = during.filter((i) => counts.get(i) === BATCH).length;
            row['partialBatches'] = [...counts.values()].filter((c) => c !== BATCH).length;
            row['write'] = (await post(again.port, '/write?db=d', batch(next + 1))).status;
            row['warnings'] = again.warnings();
          } finally {
            await again.stop();
          }
        } catch (err) {
          row['started'] = false;
          row['error'] = String(err).slice(0, 600);
        }
        if (inspect.code !== 0 && inspect.code !== 2) row['inspectOutput'] = inspect.output.slice(-600);
        totals.rounds++;
        if (row['started']) totals.started++;
        totals.lostBefore += Number(row['lostAckedBefore'] ?? 0);
        if (inspect.code === 2) totals.inspectDamaged++;
        console.log(JSON.stringify(row));
        rmSync(src, { recursive: true, force: true });
        rmSync(dst, { recursive: true, force: true });
      }
    }
  }
  console.log(JSON.stringify({ summary: totals }));
} finally {
  rmSync(root, { recursive: true, force: true });
}

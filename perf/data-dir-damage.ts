/**
 * Damage a SIGKILL cannot make, against a real `strata serve` (README "Storage engine", "Damage
 * the server starts on"): one kind of damage at a time on a copy of a small data directory,
 * then a server started on it. Per case: does it start and answer /ping, /query and /write;
 * how many points it still answers (the base answers 3120: 3200 written, 80 deleted); `strata
 * inspect`'s exit code before the start (2 = damage found); files gone afterwards (moved to
 * quarantine counts as kept); and whether a second start answers the same.
 *
 *   node build/perf/data-dir-damage.js [--only NAME-PART] [--port 19300] [--restore]
 *
 * `--restore` runs the restore cases instead: one directory alone from an older backup, and a
 * `strata restore` SIGKILLed at each of its steps followed by a server start (not a rerun).
 * Unreadable-file cases only mean something when run as a user other than root.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execPath } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { flags } from './bench-util.js';
import { countV, dirEnv, inspectDir, post, startOn, STRATA_MAIN, strataTool } from './dir-server.js';

const f = flags(process.argv.slice(2));
const port = Number(f.get('port') ?? 19300);
const only = f.get('only');
const HOUR = 3_600_000_000_000n;
const BASE = 1_700_000_000_000_000_000n;

function files(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const n of readdirSync(join(dir, rel)).sort()) {
    const p = join(rel, n);
    const st = statSync(join(dir, p), { throwIfNoEntry: false });
    if (st?.isDirectory()) out.push(...files(dir, p));
    else out.push(p);
  }
  return out;
}

/** db d, measurement m, 5 hosts over 5 weekly shards, several flushes, a DELETE, 200 points left in the WAL by a SIGKILL. */
async function base(dir: string): Promise<void> {
  const s = await startOn(dir, port, { SERVICE__FLUSH__INTERVAL_SECS: '1' });
  await post(port, '/query?q=CREATE+DATABASE+d');
  const line = (k: number) => `m,host=h${k % 5} v=${k}i ${BASE + (BigInt(k) * HOUR) / 4n}`;
  for (let b = 0; b < 6; b++) {
    await post(port, '/write?db=d', Array.from({ length: 500 }, (_, i) => line(b * 500 + i)).join('\n'));
    await sleep(1300);
  }
  await post(port, `/query?db=d&q=${encodeURIComponent(`DELETE FROM m WHERE host='h4' AND time < ${BASE + 100n * HOUR}`)}`);
  await sleep(2500);
  await post(port, '/write?db=d', Array.from({ length: 200 }, (_, i) => line(3000 + i)).join('\n'));
  await s.stop('SIGKILL');
}

const flip = (p: string, at: number) => {
  const b = readFileSync(p);
  const i = at < 0 ? b.length + at : at;
  b[i] = b[i]! ^ 0x5a;
  writeFileSync(p, b);
};
const replaceByDir = (p: string) => {
  rmSync(p, { recursive: true });
  mkdirSync(p);
};
const SHARD = 'data/d/autogen/1700438400_604800';
const TSM = `${SHARD}/000000002-000000001.tsm`;
const LOG = 'data/d/series.log';
const segment = (d: string) => `wal/${readdirSync(join(d, 'wal')).find((n) => n.endsWith('.wal'))!}`;

const CASES: Record<string, (d: string) => void> = {
  none: () => undefined,
  'tsm: flipped block byte': (d) => flip(join(d, TSM), 12),
  'tsm: flipped index byte': (d) => flip(join(d, TSM), -30),
  'tsm: flipped footer byte': (d) => flip(join(d, TSM), -3),
  'tsm: truncated to half': (d) => truncateSync(join(d, TSM), Math.floor(statSync(join(d, TSM)).size / 2)),
  'tsm: zero length': (d) => truncateSync(join(d, TSM), 0),
  'tsm: unreadable (chmod 000)': (d) => chmodSync(join(d, TSM), 0),
  'tsm: a directory in its place': (d) => replaceByDir(join(d, TSM)),
  'tsm: leftover .tmp': (d) => writeFileSync(join(d, SHARD, '000000009-000000002.tsm.tmp'), 'half'),
  'series.log: flipped byte in the middle': (d) => flip(join(d, LOG), 200),
  'series.log: flipped byte in the first record': (d) => flip(join(d, LOG), 20),
  'series.log: tail cut': (d) => truncateSync(join(d, LOG), Math.floor(statSync(join(d, LOG)).size * 0.8)),
  'series.log: zero length': (d) => truncateSync(join(d, LOG), 0),
  'series.log: unreadable (chmod 000)': (d) => chmodSync(join(d, LOG), 0),
  'series.log: a directory in its place': (d) => replaceByDir(join(d, LOG)),
  'catalog.json: flipped byte': (d) => flip(join(d, 'meta/catalog.json'), 100),
  'catalog.json: zero length': (d) => truncateSync(join(d, 'meta/catalog.json'), 0),
  'catalog: both files flipped': (d) => ['catalog.json', 'catalog.prev.json'].forEach((n) => flip(join(d, 'meta', n), 100)),
  'catalog: both files zero length': (d) => ['catalog.json', 'catalog.prev.json'].forEach((n) => truncateSync(join(d, 'meta', n), 0)),
  'catalog.json: unreadable (chmod 000)': (d) => chmodSync(join(d, 'meta/catalog.json'), 0),
  'catalog.json: a directory in its place': (d) => replaceByDir(join(d, 'meta/catalog.json')),
  'catalog.json: leftover .tmp': (d) => writeFileSync(join(d, 'meta/catalog.json.tmp'), '{'),
  'meta: directory missing': (d) => rmSync(join(d, 'meta'), { recursive: true }),
  'wal: flipped header byte': (d) => flip(join(d, segment(d)), 2),
  'wal: flipped record byte': (d) => flip(join(d, segment(d)), 3000),
  'wal: tail cut': (d) => truncateSync(join(d, segment(d)), Math.floor(statSync(join(d, segment(d))).size * 0.6)),
  'wal: zero length': (d) => truncateSync(join(d, segment(d)), 0),
  'wal: unreadable (chmod 000)': (d) => chmodSync(join(d, segment(d)), 0),
  'wal: a directory in its place': (d) => replaceByDir(join(d, segment(d))),
  'wal: leftover .tmp': (d) => writeFileSync(join(d, 'wal/00000000000000000009.wal.tmp'), 'x'),
  'wal LOCK: a directory in its place': (d) => replaceByDir(join(d, 'wal/LOCK')),
  'leftover .restore-tmp directories': (d) => ['data', 'wal'].forEach((x) => cpSync(join(d, x), join(d, `${x}.restore-tmp`), { recursive: true })),
  'leftover .backup-tmp directory': (d) => mkdirSync(join(d, 'bk.backup-tmp/data'), { recursive: true }),
  'shard directory: a file in its place': (d) => {
    rmSync(join(d, SHARD), { recursive: true });
    writeFileSync(join(d, SHARD), '');
  },
  'data directory: a file in its place': (d) => {
    rmSync(join(d, 'data'), { recursive: true });
    writeFileSync(join(d, 'data'), '');
  },
};

async function damageCases(root: string): Promise<void> {
  const src = join(root, 'base');
  await base(src);
  for (const [name, damage] of Object.entries(CASES)) {
    if (only && !name.includes(only)) continue;
    const d = join(root, name.replace(/[^a-z0-9]+/gi, '-'));
    cpSync(src, d, { recursive: true });
    damage(d);
    const before = files(d);
    const inspect = inspectDir(d).code;
    const row: Record<string, unknown> = { case: name, inspect };
    try {
      const s = await startOn(d, port);
      row['count'] = await countV(port, 'd');
      row['write'] = (await post(port, '/write?db=d', `m,host=new v=1i ${BASE}`)).status;
      row['warnings'] = s.warnings().map((w) => w.slice(0, 140));
      await s.stop();
      const again = await startOn(d, port + 1);
      row['secondStart'] = await countV(port + 1, 'd');
      await again.stop();
    } catch (err) {
      row['started'] = false;
      row['error'] = String(err).split('\n').find((l) => l.startsWith('strata:')) ?? String(err).slice(0, 300);
    }
    const after = files(d);
    const quarantined = after.filter((p) => /quarantine/.test(p));
    // The WAL segment a flush truncated and the LOCK a clean stop releases are not damage
    // handling; a file moved into a quarantine directory is kept.
    row['gone'] = before.filter((p) => !after.includes(p) && !/^wal\/(\d+\.wal|LOCK)$/.test(p) && !quarantined.some((q) => q.includes(p.split('/').pop()!)));
    row['quarantined'] = quarantined;
    console.log(JSON.stringify(row));
    rmSync(d, { recursive: true, force: true });
  }
}

const MIN = 60_000_000_000n;
const lines = (from: number, n: number) => Array.from({ length: n }, (_, i) => `m,host=h${(from + i) % 4} v=${from + i}i ${BASE + BigInt(from + i) * MIN}`).join('\n');

async function restoreCases(root: string): Promise<void> {
  const src = join(root, 'src');
  const s = await startOn(src, port, { SERVICE__FLUSH__INTERVAL_SECS: '1' });
  await post(port, '/query?q=CREATE+DATABASE+a');
  await post(port, '/write?db=a', lines(0, 3000));
  await sleep(2500);
  await post(port, '/write?db=a', lines(3000, 500));
  console.log(`backup: exit ${strataTool(src, ['backup', '--output', join(root, 'bk')]).code} (a = 3500 at backup time)`);
  await post(port, '/query?q=CREATE+DATABASE+b');
  await post(port, '/write?db=a', lines(3500, 2000));
  await post(port, '/write?db=b', lines(0, 1000));
  await sleep(2500);
  await post(port, '/write?db=a', lines(5500, 300));
  await s.stop('SIGKILL');
  const report = async (name: string, d: string) => {
    const row: Record<string, unknown> = { case: name, inspect: inspectDir(d).code };
    try {
      const srv = await startOn(d, port + 1);
      row['a'] = await countV(port + 1, 'a');
      row['b'] = await countV(port + 1, 'b');
      row['write'] = (await post(port + 1, '/write?db=a', lines(9000, 1))).status;
      row['warnings'] = srv.warnings().map((w) => w.slice(0, 140));
      await srv.stop();
    } catch (err) {
      row['error'] = String(err).slice(0, 300);
    }
    row['entries'] = readdirSync(d).sort();
    console.log(JSON.stringify(row));
  };
  const variant = (name: string, fromBackup: string[]) => {
    const d = join(root, name);
    cpSync(src, d, { recursive: true });
    for (const x of fromBackup) {
      rmSync(join(d, x), { recursive: true });
      cpSync(join(root, 'bk', x), join(d, x), { recursive: true });
    }
    return d;
  };
  await report('current state (a = 5800, b = 1000)', variant('current', []));
  const full = variant('full', []);
  console.log(`strata restore: exit ${strataTool(full, ['restore', '--input', join(root, 'bk')]).code}`);
  await report('completed restore (a = 3500, no b)', full);
  await report('data/ alone from the backup', variant('data-only', ['data']));
  await report('wal/ alone from the backup', variant('wal-only', ['wal']));
  await report('meta/ alone from the backup', variant('meta-only', ['meta']));
  await report('data/ and wal/ from the backup, current meta/', variant('data-wal', ['data', 'wal']));
  // SIGKILL at a phase line on stderr plus an offset; each step sleeps DELAY ms.
  const DELAY = 300;
  const points: [string, number][] = [['verify', 100], ['copy', 100], ['journal', 100], ['journal', 450], ['swap', 150], ['swap', 450], ['swap', 750], ['swap', 1050], ['swap', 1350], ['swap', 1650]];
  for (const [phase, offset] of points) {
    const name = `restore killed at ${phase}+${offset}ms`;
    const d = variant(name.replace(/[^a-z0-9]+/gi, '-'), []);
    const child = spawn(execPath, [STRATA_MAIN, 'restore', '--input', join(root, 'bk')], { env: { ...dirEnv(d, 0), STRATA_TOOL_STEP_DELAY_MS: String(DELAY) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stderr.on('data', (x: Buffer) => {
      err += x.toString();
      if (!timer && new RegExp(`(^|\\n)${phase}`).test(err)) timer = setTimeout(() => child.kill('SIGKILL'), offset);
    });
    const ended = await new Promise<string>((r) => child.once('exit', (code, sig) => r(String(sig ?? code))));
    clearTimeout(timer);
    const missing = ['wal', 'meta', 'data'].filter((x) => !existsSync(join(d, x)));
    console.log(`${name}: restore ended ${ended}, leftovers ${readdirSync(d).filter((n) => n.includes('restore')).join(',') || 'none'}, missing ${missing.join(',') || 'none'}`);
    await report(`${name}, then the server started`, d);
    console.log(`  rerun of strata restore afterwards: exit ${strataTool(d, ['restore', '--input', join(root, 'bk')]).code}`);
  }
}

const root = mkdtempSync(join(tmpdir(), 'strata-damage-'));
try {
  if (f.has('restore')) await restoreCases(root);
  else await damageCases(root);
} finally {
  rmSync(root, { recursive: true, force: true });
}

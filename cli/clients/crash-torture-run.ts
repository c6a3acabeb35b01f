/**
 * Runs the SIGKILL torture (crash-torture.ts) for many rounds, for hunting rather than CI:
 *   node build/cli/clients/crash-torture-run.js --seed 2 --rounds 25 [--dir D] [--keep]
 * The server's log goes to D.log; on failure D and D.log are kept for inspection.
 * --env KEY=VALUE (repeatable) adds SERVICE__ settings, e.g. SERVICE__FLUSH__WAL_BATCH_SIZE=0.
 * --break-round N deletes the WAL before restart N: the run must then fail (the verifier works).
 * --break-ddl N deletes the catalog actor's database directories (ddl*) and the WAL (which would
 * replay their points) before restart N: the run must then fail on their points (the actor's
 * verifier works, and runs before the writers').
 * --trace FILE writes the catalog actor's answered requests there.
 * --hot-weeks N writes new points to N of the six shard groups per round (the others go cold).
 * --kill-ms LO,HI kills between LO and HI ms into each round (default 200,4200).
 * --backups takes a live backup each round, restores it beside and checks it (crash-torture-backup.ts).
 * --port P starts every server on loopback port P (default: a free port each time).
 * --without-ddl runs the writers alone, without the catalog actor (crash-torture-ddl.ts).
 */
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { removeDir } from './harness.js';
import { torture } from './crash-torture.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '25' },
    writers: { type: 'string', default: '4' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'break-round': { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    'without-ddl': { type: 'boolean', default: false },
    'break-ddl': { type: 'string' },
    trace: { type: 'string' },
    port: { type: 'string' },
    'hot-weeks': { type: 'string' },
    'kill-ms': { type: 'string' },
    backups: { type: 'boolean', default: false },
  },
});
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'strata-torture-'));
mkdirSync(dir, { recursive: true });
// The model starts empty: a directory holding an earlier run's data would fail every check.
if (readdirSync(dir).length > 0) {
  console.error(`${dir} is not empty (an earlier run's data?): give a new --dir`);
  process.exit(2);
}
const logFile = `${dir}.log`;
const started = Date.now();
try {
  const stats = await torture({
    dir,
    seed: Number(values.seed),
    rounds: Number(values.rounds),
    writers: Number(values.writers),
    ...(values.port !== undefined && { port: Number(values.port) }),
    backups: values.backups,
    ...(values['hot-weeks'] !== undefined && { hotWeeks: Number(values['hot-weeks']) }),
    ...(values['kill-ms'] !== undefined && { killMs: values['kill-ms'].split(',').map(Number) as [number, number] }),
    ddl: !values['without-ddl'],
    ddlTrace: values.trace ? (line) => appendFileSync(values.trace!, line + '\n') : undefined,
    env: Object.fromEntries(values.env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    log: (line) => console.log(`${((Date.now() - started) / 1000).toFixed(1)}s ${line}`),
    beforeRestart: (round) => {
      if (values['break-round'] !== undefined && Number(values['break-round']) === round) removeDir(join(dir, 'wal'));
      if (values['break-ddl'] !== undefined && Number(values['break-ddl']) === round) {
        for (const db of readdirSync(join(dir, 'engine')).filter((n) => n.startsWith('ddl'))) removeDir(join(dir, 'engine', db));
        removeDir(join(dir, 'wal'));
      }
    },
    serverLog: (text) => appendFileSync(logFile, `${text}\n---- server exit ----\n`),
  });
  console.log(`ok seed ${values.seed}: ${JSON.stringify(stats)}`);
  if (!values.keep) {
    removeDir(dir);
    removeDir(`${dir}-backups`);
    removeDir(logFile);
  }
} catch (err) {
  console.error(`FAILED seed ${values.seed} (data kept in ${dir}, server log ${logFile}):\n${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}

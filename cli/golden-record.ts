/**
 * Records the `expect` blocks of the golden query scripts from InfluxDB 1.6.7:
 *
 *   shared/conformance/oracle.sh start 18486 18488
 *   node build/cli/golden-record.js --url http://127.0.0.1:18486 [fixtures/queries/x.test ...]
 *
 * Each script is replayed on fresh databases and rewritten in place with the oracle's answers
 * (status and body). Without file arguments every fixtures/queries/*.test is recorded.
 * Never point it at Strata: the expectations must come from the oracle (style.md item 10).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { argv, exit } from 'node:process';
import { formatScript, parseScript, replay } from './golden-script.js';

export const GOLDEN_DIR = 'fixtures/queries';

export async function goldenFiles(root: string): Promise<string[]> {
  const dir = resolve(root, GOLDEN_DIR);
  return (await readdir(dir))
    .filter((f) => f.endsWith('.test'))
    .sort()
    .map((f) => join(dir, f));
}

async function main(args: string[]): Promise<void> {
  const i = args.indexOf('--url');
  const url = i >= 0 ? args[i + 1]?.replace(/\/+$/, '') : undefined;
  const files = args.filter((a, j) => a !== '--url' && j !== i + 1);
  if (!url) {
    console.error('usage: node build/cli/golden-record.js --url http://127.0.0.1:PORT [script.test ...]');
    exit(2);
  }
  const version = (await fetch(`${url}/ping`)).headers.get('x-influxdb-version');
  if (!version?.startsWith('1.')) {
    console.error(`${url} is not InfluxDB 1.x (X-Influxdb-Version: ${version ?? 'none'}); expectations come from the oracle only`);
    exit(2);
  }
  for (const file of files.length ? files.map((f) => resolve(f)) : await goldenFiles(process.cwd())) {
    const steps = parseScript(await readFile(file, 'utf8'), file);
    let n = 0;
    await replay(url, steps, file, (step, got) => {
      step.expect = got;
      n++;
    });
    await writeFile(file, formatScript(steps));
    console.log(`${file}: ${n} queries recorded from InfluxDB ${version}`);
  }
}

if (argv[1]?.endsWith('golden-record.js')) await main(argv.slice(2));

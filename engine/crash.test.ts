/**
 * Durability under SIGKILL: a child writes as fast as it can while the test kills it at a
 * random moment, 20 rounds on the same directories. After each kill the engine must open,
 * and every point whose write was acknowledged must read back with its value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Engine } from './engine.js';
import { engineOptions } from './options.js';
import { readSeries } from './testing/read-all.js';
import { tempDir } from './testing/temp-dir.js';

const CHILD = join(process.cwd(), 'build/engine/testing/crash-writer.js');
const ROUNDS = 20;

function runAndKill(root: string, round: number, killAfterMs: number): Promise<Map<number, number[]>> {
  return new Promise((resolve, reject) => {
    const acked = new Map<number, number[]>();
    const child = spawn(process.execPath, [CHILD, root, String(round)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line === 'ready') timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        const m = /^ack (\d+) (\d+) (\d+)$/.exec(line);
        if (m) {
          const w = Number(m[1]);
          const list = acked.get(w) ?? [];
          for (let i = Number(m[2]); i <= Number(m[3]); i++) list.push(i);
          acked.set(w, list);
        }
      }
    });
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`crash writer exited with ${code ?? signal} before the kill`));
    });
  });
}

test('SIGKILL at random moments loses no acknowledged point and never blocks start-up', { timeout: 180_000 }, async (t) => {
  // Removed after the test: every round awaits its child's exit before the next step.
  const root = await tempDir(t, 'strata-crash-');
  const expected = new Map<string, Map<bigint, number>>();
  let total = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const acked = await runAndKill(root, round, 50 + Math.floor(Math.random() * 400));
    for (const [w, list] of acked) {
      const key = `crash,w=${w}`;
      const m = expected.get(key) ?? new Map<bigint, number>();
      for (const i of list) m.set(BigInt(round * 1_000_000_000 + i), i);
      expected.set(key, m);
      total += list.length;
    }
    const engine = await Engine.open(
      engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 }),
    );
    try {
      for (const [seriesKey, points] of expected) {
        const rows = new Map((await readSeries(engine, { db: 'crash', measurement: 'crash', seriesKey, field: 'v' })).map(([t, v]) => [t, v]));
        for (const [t, v] of points) assert.equal(rows.get(t), v, `round ${round}: ${seriesKey} at ${t} lost`);
      }
    } finally {
      await engine.close();
    }
  }
  assert.ok(total > 1000, `only ${total} points were acknowledged across all rounds`);
});

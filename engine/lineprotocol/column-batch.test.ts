/**
 * Every ColumnBatch the event loop gets shares one hidden class, whether its columns came in a
 * slot, in a transferred buffer, or were built on the event loop (column-batch.ts): otherwise
 * the cache apply's optimized code deoptimises at each new class early in a server's life.
 * The check needs V8's natives syntax, so it runs in a child process of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHILD = `
const pool = new (await import(${JSON.stringify(new URL('./parse-pool.js', import.meta.url).href)})).ParsePool(1);
const { parseToColumns } = await import(${JSON.stringify(new URL('./columns.js', import.meta.url).href)});
const body = (k) => {
  const lines = [];
  for (let i = 0; i < 2000; i++) lines.push('sensors,device=d' + (i % 100) + ',site=s' + (i % 7) + ' temperature=' + (20 + (i % 13) / 4) + ',rssi=' + (-(i % 50)) + 'i ' + (1451606400 + k * 20 + Math.floor(i / 100)) + '000000000');
  return Buffer.from(lines.join('\\n'));
};
const opts = { precision: 'ns', defaultSec: 0, defaultNsec: 0 };
const batches = [];
for (let round = 0; round < 3; round++) {
  // More bodies at once than the worker has slots: the rest travel as transferred buffers.
  const got = await Promise.all(Array.from({ length: 10 }, (_, k) => pool.parse(body(round * 10 + k), opts)));
  for (const g of got) { batches.push(g.batch); g.release(); }
}
batches.push(parseToColumns(body(99), opts));
const kinds = new Set(batches.map((b) => (b.sec.buffer instanceof SharedArrayBuffer ? 'slot' : 'transferred or local')));
const classes = [];
for (const b of batches) if (!classes.some((c) => %HaveSameMap(c, b))) classes.push(b);
await pool.close();
console.log(JSON.stringify({ classes: classes.length, kinds: [...kinds].sort(), batches: batches.length }));
`;

test('batches from slots, transferred buffers and the event loop share one hidden class', () => {
  // A file, not -e: worker threads inherit the parent's execArgv, and -e's input type with it.
  const dir = mkdtempSync(join(tmpdir(), 'strata-batch-class-'));
  const script = join(dir, 'child.mjs');
  writeFileSync(script, CHILD);
  let out: string;
  try {
    out = execFileSync(process.execPath, ['--allow-natives-syntax', script], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const r = JSON.parse(out.trim().split('\n').pop()!) as { classes: number; kinds: string[]; batches: number };
  assert.deepEqual(r.kinds, ['slot', 'transferred or local'], 'both paths were taken');
  assert.equal(r.batches, 31);
  assert.equal(r.classes, 1);
});

/**
 * A raw query over 10M points streamed with chunked=true keeps the server's memory bounded:
 * the data is written with the engine, then `strata serve` answers the query while the test
 * reads it slowly-enough and counts rows; peak RSS (VmHWM) must stay far below what holding
 * the result would take (~10M rows ≈ 1+ GB of JS objects).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { Engine, engineOptions } from '../engine/index.js';
import { startServer, stopServer } from './clients/harness.js';
import { tempDir } from '../engine/testing/temp-dir.js';

const SERIES = 100;
const PER_SERIES = 100_000;

async function vmHwmKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

test('10M-point raw query streamed with chunked=true keeps server RSS bounded', { timeout: 600_000 }, async (t) => {
  const dir = await tempDir(t, 'strata-chunked-');
  // The directory layout strata serve gets from the test harness.
  const dirs = { walDir: join(dir, 'wal'), metaDir: join(dir, 'meta'), dataDir: join(dir, 'engine') };
  const engine = await Engine.open(engineOptions({ ...dirs, flushIntervalSec: 0, compaction: { intervalMs: 0, coldAfterMs: 0, maxFileBytes: 1 << 28 } }));
  await engine.catalog.createDatabase('big');
  const base = 1_700_000_000;
  for (let start = 0; start < PER_SERIES; start += 1000) {
    const lines: string[] = [];
    for (let s = 0; s < SERIES; s++) for (let i = start; i < start + 1000; i++) lines.push(`m,s=${s} v=${i}i ${base + i}`);
    await engine.write({ db: 'big', precision: 's', body: Buffer.from(lines.join('\n')) });
  }
  await engine.close();

  const srv = await startServer({ dir, env: { SERVICE__SERVER__QUERY_TIMEOUT_SECS: '600', SERVICE__LOGGING__LEVEL: 'warn' } });
  const { port, child } = srv;
  try {
    const baseline = await vmHwmKb(child.pid!);
    let rows = 0;
    let lines = 0;
    await new Promise<void>((resolve, reject) => {
      const q = encodeURIComponent('SELECT v FROM m');
      const req = request({ host: '127.0.0.1', port, path: `/query?db=big&chunked=true&chunk_size=10000&epoch=ns&q=${q}` }, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          buf += d;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            lines++;
            const body = JSON.parse(line) as { results: { series?: { values: unknown[] }[] }[] };
            rows += body.results[0]?.series?.[0]?.values.length ?? 0;
          }
        });
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    const peak = await vmHwmKb(child.pid!);
    assert.equal(rows, SERIES * PER_SERIES);
    assert.ok(lines >= rows / 10_000, `${lines} chunk lines`);
    // Holding 10M rows would take well over a gigabyte; the stream must stay near the baseline.
    assert.ok(peak < 400 * 1024, `server peak RSS ${Math.round(peak / 1024)} MB (baseline ${Math.round(baseline / 1024)} MB)`);
  } finally {
    await stopServer(srv);
  }
});

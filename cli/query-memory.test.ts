/**
 * A query's answer is sent as it is made, so the server's memory is bounded by what it sends,
 * not by the whole answer. One dataset of 10M points (written with the engine), two fresh
 * `strata serve` processes over it, each asked one big raw query while the test reads the
 * answer as it comes; peak RSS (VmHWM) must stay far below what holding the answer takes.
 * - chunked=true over all 10M points (~10M rows would be 1+ GB of JS objects);
 * - without chunked (python influxdb's `query()`, Grafana, curl), 4M rows: built whole, they
 *   took ~1.5 GB of RSS, and a larger answer killed the process (heap out of memory). The body
 *   must still be exactly 1.x's document: one series per tag set, `partial: true` on a series
 *   of more than 10,000 rows (1.x's merged-emitter quirk, server/format/json.ts);
 * - the same 4M rows as CSV (`Accept: application/csv`, an operator's export), likewise.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createGunzip } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions } from '../engine/index.js';
import { startServer, stopServer } from './clients/harness.js';

const SERIES = 100;
const PER_SERIES = 100_000;
const BASE = 1_700_000_000;
let dir = '';

async function vmHwmKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-query-memory-'));
  // The directory layout strata serve gets from the test harness.
  const dirs = { walDir: join(dir, 'wal'), metaDir: join(dir, 'meta'), dataDir: join(dir, 'engine') };
  const engine = await Engine.open(engineOptions({ ...dirs, flushIntervalSec: 0, compaction: { intervalMs: 0, coldAfterMs: 0, maxFileBytes: 1 << 28 } }));
  await engine.catalog.createDatabase('big');
  for (let start = 0; start < PER_SERIES; start += 1000) {
    const lines: string[] = [];
    for (let s = 0; s < SERIES; s++) for (let i = start; i < start + 1000; i++) lines.push(`m,s=${s} v=${i}i ${BASE + i}`);
    await engine.write({ db: 'big', precision: 's', body: Buffer.from(lines.join('\n')) });
  }
  await engine.close();
});

/** A fresh server over the dataset: its peak RSS is this query's alone. */
async function withServer(run: (port: number, pid: number) => Promise<void>): Promise<void> {
  const srv = await startServer({ dir, env: { SERVICE__SERVER__QUERY_TIMEOUT_SECS: '600', SERVICE__LOGGING__LEVEL: 'warn' } });
  try {
    await run(srv.port, srv.child.pid!);
  } finally {
    await stopServer(srv);
  }
}

/** GET `path`, handing the body to `onText` as it comes; resolves with the response headers. */
function stream(port: number, path: string, onText: (text: string) => void): Promise<Record<string, unknown>> {
  return streamWithHeaders(port, path, {}, onText);
}

function streamWithHeaders(port: number, path: string, headers: Record<string, string>, onText: (text: string) => void): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.setEncoding('utf8');
      res.on('data', onText);
      res.on('end', () => (res.complete ? resolve(res.headers) : reject(new Error('answer cut'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
after(() => rm(dir, { recursive: true, force: true }));

test('10M-point raw query streamed with chunked=true keeps server RSS bounded', { timeout: 600_000 }, async () => {
  await withServer(async (port, pid) => {
    const baseline = await vmHwmKb(pid);
    let rows = 0;
    let lines = 0;
    let buf = '';
    const q = encodeURIComponent('SELECT v FROM m');
    await stream(port, `/query?db=big&chunked=true&chunk_size=10000&epoch=ns&q=${q}`, (d) => {
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
    const peak = await vmHwmKb(pid);
    assert.equal(rows, SERIES * PER_SERIES);
    assert.ok(lines >= rows / 10_000, `${lines} chunk lines`);
    // Holding 10M rows would take well over a gigabyte; the stream must stay near the baseline.
    assert.ok(peak < 400 * 1024, `server peak RSS ${Math.round(peak / 1024)} MB (baseline ${Math.round(baseline / 1024)} MB)`);
  });
});

test('the same 10M points chunked and gzip-compressed, read by a client that pauses: inflated as they come, server RSS bounded', { timeout: 600_000 }, async () => {
  await withServer(async (port, pid) => {
    const baseline = await vmHwmKb(pid);
    let rows = 0;
    let buf = '';
    let compressed = 0;
    const q = encodeURIComponent('SELECT v FROM m');
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: `/query?db=big&chunked=true&chunk_size=10000&epoch=ns&q=${q}`, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const inflate = createGunzip();
        res.on('data', (d: Buffer) => (compressed += d.length));
        // A client that stops reading for a while: the server must wait, not compress ahead into memory.
        res.once('data', () => {
          res.pause();
          setTimeout(() => res.resume(), 5000);
        });
        res.pipe(inflate).setEncoding('utf8');
        inflate.on('data', (d: string) => {
          buf += d;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const body = JSON.parse(buf.slice(0, nl)) as { results: { series?: { values: unknown[] }[] }[] };
            buf = buf.slice(nl + 1);
            rows += body.results[0]?.series?.[0]?.values.length ?? 0;
          }
        });
        inflate.on('end', () => (res.complete ? resolve(res.headers) : reject(new Error('answer cut'))));
        inflate.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    const peak = await vmHwmKb(pid);
    assert.equal(headers['content-encoding'], 'gzip');
    assert.equal(rows, SERIES * PER_SERIES);
    assert.ok(compressed < 100 * 1024 * 1024, `${compressed} compressed bytes`);
    // Measured +118 MB over the baseline; +252 MB when writes did not wait for zlib's flush (the
    // producer ran ahead during the client's pause and zlib queued the text).
    assert.ok(peak < baseline + 180 * 1024, `server peak RSS ${Math.round(peak / 1024)} MB (baseline ${Math.round(baseline / 1024)} MB)`);
  });
});

/** Reads a JSON answer as it comes, checking its layout without holding it (or parsing 4M rows). */
class AnswerScanner {
  depth = 0;
  rows = 0;
  series = 0;
  head = '';
  tail = '';

  feed(chunk: string): void {
    if (this.head.length < 160) this.head += chunk.slice(0, 160 - this.head.length);
    this.tail = (this.tail + chunk).slice(-64);
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 0x5b /* [ */) {
        // results[ series[ values[ [row: a row is the fourth array deep (objects do not count)
        this.depth++;
        if (this.depth === 4) this.rows++;
      } else if (c === 0x5d /* ] */) this.depth--;
    }
    this.series += (chunk.match(/"name":"m"/g) ?? []).length;
  }
}

test('a 4M-row answer without chunked=true is streamed: exact layout, server RSS bounded', { timeout: 600_000 }, async () => {
  const perSeries = 40_000;
  await withServer(async (port, pid) => {
    const baseline = await vmHwmKb(pid);
    const scan = new AnswerScanner();
    const q = encodeURIComponent(`SELECT v FROM m WHERE time < ${BASE + perSeries}s GROUP BY s`);
    const headers = await stream(port, `/query?db=big&epoch=ns&q=${q}`, (d) => scan.feed(d));
    const peak = await vmHwmKb(pid);
    assert.equal(scan.rows, SERIES * perSeries);
    assert.equal(scan.series, SERIES, 'one series per tag set, however many pieces it was made of');
    assert.equal(scan.depth, 0);
    // Tag sets in 1.x's order (by tag value as text: 0, 1, 10, ..., 99).
    assert.ok(scan.head.startsWith('{"results":[{"statement_id":0,"series":[{"name":"m","tags":{"s":"0"},"columns":["time","v"],"values":[[1700000000000000000,0],'), scan.head);
    assert.ok(scan.tail.endsWith(`[${BASE + perSeries - 1}000000000,${perSeries - 1}]],"partial":true}]}]}\n`), scan.tail);
    assert.equal(headers['transfer-encoding'], 'chunked', 'sent as it is made, not as one buffered body');
    // Held whole, 4M rows and their text took ~1.5 GB; the stream stays near the baseline.
    assert.ok(peak < baseline + 250 * 1024, `server peak RSS ${Math.round(peak / 1024)} MB (baseline ${Math.round(baseline / 1024)} MB)`);
  });
});

test('a 4M-row CSV answer is streamed: 1.x layout, server RSS bounded', { timeout: 600_000 }, async () => {
  const perSeries = 40_000;
  await withServer(async (port, pid) => {
    const baseline = await vmHwmKb(pid);
    let lines = 0;
    let headers = 0;
    let head = '';
    let tail = '';
    const q = encodeURIComponent(`SELECT v FROM m WHERE time < ${BASE + perSeries}s GROUP BY s`);
    const res = await streamWithHeaders(port, `/query?db=big&q=${q}`, { accept: 'application/csv' }, (d) => {
      if (head.length < 120) head += d.slice(0, 120 - head.length);
      tail = (tail + d).slice(-64);
      for (let i = d.indexOf('\n'); i >= 0; i = d.indexOf('\n', i + 1)) lines++;
      headers += (d.match(/name,tags,time,v\n/g) ?? []).length;
    });
    const peak = await vmHwmKb(pid);
    // One header for the statement (every series has the same columns), then one line per row.
    assert.equal(headers, 1);
    assert.equal(lines, 1 + SERIES * perSeries);
    assert.ok(head.startsWith('name,tags,time,v\nm,s=0,1700000000000000000,0\nm,s=0,1700000001000000000,1\n'), head);
    assert.ok(tail.endsWith(`\nm,s=99,${BASE + perSeries - 1}000000000,${perSeries - 1}\n`), tail);
    assert.equal(res['content-type'], 'text/csv');
    assert.equal(res['transfer-encoding'], 'chunked', 'sent as it is made, not as one buffered body');
    assert.ok(peak < baseline + 250 * 1024, `server peak RSS ${Math.round(peak / 1024)} MB (baseline ${Math.round(baseline / 1024)} MB)`);
  });
});

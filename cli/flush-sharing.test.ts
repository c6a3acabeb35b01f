/**
 * A light statement while a cache flush runs beside heavy statements, on a real server: the
 * flush moves the points the light statement reads from the cache into a TSM file no query has
 * read yet. Each of its series-fields then started with a read of its own, a round trip through
 * the thread pool and the event loop that waited a full slice of every heavy statement: one
 * to three seconds where the statement alone takes a tenth of that (perf/README.md 27, on main
 * before it). Started by the flush service's entry (as the interval timer starts it) and by
 * writes crossing the cache's snapshot threshold. Every acknowledged point is counted once
 * during and after each flush.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { alone, sleep, timed, waitUntil, type Answer } from './query-timing.js';
import { call, q, startRealServer, type RealServer } from './test-server.js';

const T0 = 1_600_000_000_000_000_000n;
/** Three full scans per request (no block statistic settles the condition, no row meets it): seconds of work. */
const HEAVY = Array.from({ length: 3 }, () => 'SELECT * FROM heavy WHERE v + w = -1').join('; ');
const LIGHT = 'SELECT * FROM light WHERE v + w = -1';
const EMPTY = '{"results":[{"statement_id":0}]}\n';
const HOSTS = 100;
/** Points of one write that take the caches past the server's snapshot threshold (8 MiB of cache). */
const PAST_THRESHOLD = 450_000;

/** Points of `m`, one per second from `from`, host h(k % HOSTS), v = k and w = 2k: the sum of v is known. */
async function write(srv: RealServer, m: string, from: number, n: number): Promise<void> {
  const lines: string[] = [];
  for (let k = from; k < from + n; k++) lines.push(`${m},host=h${k % HOSTS} v=${k},w=${k * 2} ${T0 + BigInt(k) * 1_000_000_000n}`);
  const res = await call(srv, { method: 'POST', path: '/write?db=db', body: lines.join('\n') });
  assert.equal(res.status, 204, res.text);
}

/** Every point written so far of one measurement: ranges [from, from + n) of k. */
class Written {
  private readonly ranges: [number, number][] = [];
  add(from: number, n: number): void {
    this.ranges.push([from, n]);
  }
  get count(): number {
    return this.ranges.reduce((s, [, n]) => s + n, 0);
  }
  get sum(): number {
    return this.ranges.reduce((s, [f, n]) => s + (n * (2 * f + n - 1)) / 2, 0);
  }
}

async function assertAll(srv: RealServer, m: string, w: Written, when: string): Promise<void> {
  const res = await timed(srv, `SELECT count(v), sum(v) FROM ${m}`);
  assert.equal(res.status, 200, res.text);
  const values = (JSON.parse(res.text) as { results: { series: { values: [string, number, number][] }[] }[] }).results[0]!.series[0]!.values[0]!;
  assert.deepEqual([values[1], values[2]], [w.count, w.sum], `${m} ${when}: every acknowledged point once`);
}

async function flushRuns(srv: RealServer): Promise<number> {
  return (await srv.deps.metrics.flushRuns.get()).values[0]?.value ?? 0;
}

describe('a light statement while a flush runs beside heavy ones', { timeout: 600_000 }, () => {
  let srv: RealServer;
  const heavy = new Written();
  const light = new Written();
  let next = 0;
  before(async () => {
    srv = await startRealServer({ 'server.query_timeout_secs': 120 });
    assert.equal((await call(srv, { method: 'POST', path: q('CREATE DATABASE db') })).status, 200);
    await write(srv, 'heavy', 0, 300_000);
    heavy.add(0, 300_000);
    await write(srv, 'light', 0, 60_000);
    light.add(0, 60_000);
    next = 300_000;
    await srv.deps.flush();
    await timed(srv, HEAVY); // warm the code paths the measurements below run
  });
  after(() => srv.close());

  for (const trigger of ['the flush service', 'writes past the snapshot threshold'] as const) {
    it(`started by ${trigger}: answered in about its own time, every point counted once`, async (t) => {
      const own = await alone(srv, LIGHT);
      const answers: Answer[] = [];
      for (let round = 0; round < 3; round++) {
        // New points in the caches: this round's flush writes them to a file nothing has read.
        await write(srv, 'heavy', next, 50_000);
        heavy.add(next, 50_000);
        await write(srv, 'light', next, 20_000);
        light.add(next, 20_000);
        next += 50_000;
        const running = [0, 1, 2].map(() => timed(srv, HEAVY));
        await waitUntil('heavy statements running', () => srv.deps.queries!.size === 3, 10_000);
        const runs = await flushRuns(srv);
        if (trigger === 'the flush service') {
          const flushed = srv.deps.flush();
          await assertAll(srv, 'light', light, 'during the flush');
          await flushed;
        } else {
          await write(srv, 'feed', next, PAST_THRESHOLD);
          // The write is answered once logged; the flush it set off runs after that.
          while ((await flushRuns(srv)) === runs) await sleep(20);
        }
        assert.ok((await flushRuns(srv)) > runs, 'a flush ran');
        // Long enough for each heavy statement to have run more than the light one needs (as in
        // query-sharing.test.ts): on a loaded machine the flush can take most of their time.
        await sleep(6 * own);
        assert.equal(srv.deps.queries!.size, 3, 'the heavy statements outlast the flush');
        const answer = await timed(srv, LIGHT);
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.text, EMPTY);
        answers.push(answer);
        for (const h of await Promise.all(running)) {
          assert.equal(h.status, 200, h.text.slice(0, 200));
          assert.ok(answer.at < h.at, `light answered after a heavy one (${answer.ms.toFixed(0)} ms)`);
        }
        await assertAll(srv, 'light', light, 'after the flush');
        await assertAll(srv, 'heavy', heavy, 'after the flush');
      }
      const best = Math.min(...answers.map((a) => a.ms));
      const all = answers.map((a) => a.ms.toFixed(0)).join(', ');
      t.diagnostic(`light statement after a flush beside heavy ones: ${all} ms; ${own.toFixed(0)} ms alone`);
      // Main: 2.8-6.3 s in every round (a read and a heavy slice per series-field); here
      // 0.2-0.8 s on a machine at load 6-9, most of it GC pauses of the heavy scans.
      assert.ok(best < Math.max(4 * own, own + 400), `light statement after a flush: ${all} ms beside heavy ones, ${own.toFixed(0)} ms alone`);
    });
  }
});

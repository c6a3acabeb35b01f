/**
 * Timing helpers of the tests that send light queries beside heavy ones (imported only by
 * *.test.ts): each answer with its latency and arrival time, a query's own time with nothing
 * else running, and waiting for a server-side condition.
 */
import assert from 'node:assert/strict';
import { call, q, type RealServer } from './test-server.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface Answer {
  readonly status: number;
  readonly text: string;
  /** ms from sending to the whole answer, and when it came (performance.now()). */
  readonly ms: number;
  readonly at: number;
}

export async function timed(srv: RealServer, text: string, db = 'db'): Promise<Answer> {
  const start = performance.now();
  const res = await call(srv, { path: q(text, db) });
  const at = performance.now();
  return { status: res.status, text: res.text, ms: at - start, at };
}

/** The fastest of `n` answers to `text` with nothing else running (the machine is shared: the minimum is its own time). */
export async function alone(srv: RealServer, text: string, n = 3): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i++) best = Math.min(best, (await timed(srv, text)).ms);
  return best;
}

export async function waitUntil(what: string, cond: () => boolean, ms: number): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) assert.fail(`${what}: not within ${ms} ms`);
    await sleep(5);
  }
}

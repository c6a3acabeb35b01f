/** Cancellation of a running batch: between statements, and at executor checkpoints. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../parser/query.js';
import type { Statement } from '../ast/statements.js';
import { checkpoint, eventLoopTurned, type QueryContext } from './context.js';
import { executeStatements } from './executor.js';
import { QueryKilledError } from './queries/registry.js';

function context(signal: AbortSignal): QueryContext {
  return { engine: undefined as never, database: '', retentionPolicy: '', nowNs: 0n, signal };
}

describe('abort', () => {
  it('a batch aborted during one statement runs no further statement', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const meta = async (stmt: Statement) => {
      ran.push(stmt.kind);
      return { series: [] };
    };
    const run = executeStatements(parseQuery('SHOW DATABASES; CREATE DATABASE x'), context(controller.signal), meta, () => {
      controller.abort(new QueryKilledError());
    });
    await assert.rejects(run, QueryKilledError);
    assert.deepEqual(ran, ['ShowDatabases']);
  });

  it('checkpoints let timers run during a long computation and throw once aborted', async () => {
    const controller = new AbortController();
    const ctx = context(controller.signal);
    setTimeout(() => controller.abort(new QueryKilledError()), 30);
    const started = performance.now();
    let iterations = 0;
    await assert.rejects(async () => {
      for (;;) {
        iterations++;
        await checkpoint(ctx);
        if (performance.now() - started > 5000) assert.fail('the timer never fired');
      }
    }, QueryKilledError);
    assert.ok(iterations > 1);
  });

  it('a checkpoint right after a loop turn does not yield; one after an idle spell does', async () => {
    const ctx = context(new AbortController().signal);
    const yieldedAt = async (): Promise<boolean> => {
      let ran = false;
      setImmediate(() => (ran = true));
      await checkpoint(ctx);
      return ran;
    };
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(await yieldedAt(), true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    eventLoopTurned();
    assert.equal(await yieldedAt(), false);
  });
});

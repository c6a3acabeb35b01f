/** Cancellation of a running batch: between statements, and at executor checkpoints. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../parser/query.js';
import type { Statement } from '../ast/statements.js';
import { checkpoint, type QueryContext } from './context.js';
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
});

/**
 * WorkerClient.whenLoaded: resolves once the thread posted WORKER_LOADED (its modules are
 * loaded), never before; resolves too when the thread fails to load, so a caller waiting for
 * it before listening never hangs; and at once when no thread runs.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WORKER_LOADED, WorkerClient } from './worker-client.js';

const dirs: string[] = [];

/** A worker module whose top level takes `delayMs` (as a module graph would) and then posts the signal. */
async function workerFile(body: string): Promise<URL> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-worker-client-'));
  dirs.push(dir);
  const file = join(dir, 'worker.mjs');
  await writeFile(file, `import { parentPort } from 'node:worker_threads';\n${body}\n`);
  return pathToFileURL(file);
}

after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('WorkerClient.whenLoaded', { timeout: 10_000 }, () => {
  it('waits for the loaded signal of a slow-loading thread', async () => {
    const url = await workerFile(
      `const until = Date.now() + 300; while (Date.now() < until) {}\nparentPort.on('message', (m) => parentPort.postMessage({ id: m.id }));\nparentPort.postMessage(${JSON.stringify(WORKER_LOADED)});`,
    );
    const client = new WorkerClient<{ id: number }>(url, {});
    const t0 = performance.now();
    client.warm();
    await client.whenLoaded();
    const waited = performance.now() - t0;
    assert.ok(waited >= 290, `resolved after ${waited.toFixed(0)} ms, before the module finished loading`);
    // The signal is not taken for a reply, and requests still work.
    assert.deepEqual(await client.request({}), { id: 1 });
    await client.whenLoaded(); // already loaded: at once
    await client.close();
  });

  it('resolves when the thread fails to load', async () => {
    const url = await workerFile(`throw new Error('broken bundle');`);
    const client = new WorkerClient<{ id: number }>(url, {});
    client.warm();
    await client.whenLoaded();
    assert.equal(client.running, false);
    await client.close();
  });

  it('resolves at once when no thread was started', async () => {
    const client = new WorkerClient<{ id: number }>(await workerFile(''), {});
    await client.whenLoaded();
    assert.equal(client.running, false);
    await client.close();
  });
});

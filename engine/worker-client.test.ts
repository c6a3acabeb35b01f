/**
 * WorkerClient.whenLoaded: resolves once the thread posted WORKER_LOADED (its modules are
 * loaded), never before; resolves too when the thread fails to load, so a caller waiting for
 * it before listening never hangs; and at once when no thread runs.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

/** Runs `script` (an ES module; `CLIENT` and `ENGINE` are the built modules' URLs) in a child node; its stdout and exit status. */
async function child(script: string, timeoutMs = 8_000): Promise<{ status: number | null; stdout: string }> {
  const client = new URL('./worker-client.js', import.meta.url).href;
  const engine = new URL('./engine.js', import.meta.url).href;
  const options = new URL('./options.js', import.meta.url).href;
  const source = `const CLIENT = ${JSON.stringify(client)}; const ENGINE = ${JSON.stringify(engine)}; const OPTIONS = ${JSON.stringify(options)};\n${script}`;
  // A file, not --eval: a Worker inherits execArgv, and --input-type fails its start.
  const dir = await mkdtemp(join(tmpdir(), 'strata-worker-client-'));
  dirs.push(dir);
  const file = join(dir, 'child.mjs');
  await writeFile(file, source);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, stdout: r.stdout };
}

describe('WorkerClient and the process lifetime', { timeout: 30_000 }, () => {
  it('an idle thread does not keep the process alive', async () => {
    const url = await workerFile(`parentPort.on('message', (m) => parentPort.postMessage({ id: m.id }));`);
    const r = await child(`const { WorkerClient } = await import(CLIENT);
      const c = new WorkerClient(new URL(${JSON.stringify(url.href)}), {});
      console.log('reply', (await c.request({})).id);`);
    assert.equal(r.stdout.trim(), 'reply 1');
    assert.equal(r.status, 0, 'the process did not exit after the reply (killed at the timeout)');
  });

  it('a thread keeps the process alive while a request waits on it', async () => {
    const url = await workerFile(`parentPort.on('message', (m) => setTimeout(() => parentPort.postMessage({ id: m.id }), 400));`);
    const r = await child(`const { WorkerClient } = await import(CLIENT);
      const c = new WorkerClient(new URL(${JSON.stringify(url.href)}), {});
      c.request({}).then((m) => console.log('reply', m.id));`);
    assert.equal(r.stdout.trim(), 'reply 1', 'the process exited before the thread answered');
    assert.equal(r.status, 0);
  });

  it('a thread keeps the process alive while whenLoaded waits on it', async () => {
    const url = await workerFile(`await new Promise((r) => setTimeout(r, 400));\nparentPort.postMessage(${JSON.stringify(WORKER_LOADED)});`);
    const r = await child(`const { WorkerClient } = await import(CLIENT);
      const c = new WorkerClient(new URL(${JSON.stringify(url.href)}), {});
      c.warm();
      c.whenLoaded().then(() => console.log('loaded', c.running));`);
    assert.equal(r.stdout.trim(), 'loaded true', 'the process exited before the thread loaded');
    assert.equal(r.status, 0);
  });

  it('an engine left open with its parse worker lets the process exit', async () => {
    const root = await mkdtemp(join(tmpdir(), 'strata-worker-client-'));
    dirs.push(root);
    const r = await child(`const { Engine } = await import(ENGINE); const { engineOptions } = await import(OPTIONS);
      const root = ${JSON.stringify(root)};
      const e = await Engine.open(engineOptions({ walDir: root + '/wal', metaDir: root + '/meta', dataDir: root + '/data', parseWorkers: 1, flushIntervalSec: 0 }));
      await e.catalog.createDatabase('db');
      await e.write({ db: 'db', precision: 's', body: Buffer.from('cpu,host=a v=1 10\\n') });
      console.log('written');`);
    assert.equal(r.stdout.trim(), 'written');
    assert.equal(r.status, 0, 'the process hung on the idle parse worker (killed at the timeout)');
  });
});

/**
 * The harness starts only our own server: a port another process holds (here an HTTP server
 * that answers /ping with 204, as another test's Strata would) makes startServer fail instead of
 * returning a server whose child died of "address in use" while the other one answered.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { freePort, listensOn, removeDir, startServer, stopServer } from './harness.js';

test('startServer does not mistake another process on its port for its server', { timeout: 60_000 }, async () => {
  const port = await freePort();
  const impostor = createServer((_req, res) => {
    res.statusCode = 204;
    res.end();
  });
  await new Promise<void>((ok) => impostor.listen(port, '127.0.0.1', ok));
  try {
    assert.equal(listensOn(process.pid, port), true);
    await assert.rejects(startServer({ port }), /taken by another process/);
  } finally {
    await new Promise((ok) => impostor.close(ok));
  }
  const s = await startServer({ port });
  try {
    assert.equal(listensOn(s.child.pid!, port), true);
    assert.equal(listensOn(process.pid, port), false);
  } finally {
    await stopServer(s);
    removeDir(s.dir);
  }
});

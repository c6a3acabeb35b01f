import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './app.js';
import { RecordingDeps } from './testing.js';
import { defaultServerOptions } from './options.js';
import { ListenError } from './errors.js';

test('a second server on the same port fails to start instead of sharing the port', async () => {
  const first = await startServer(new RecordingDeps(), defaultServerOptions({ server: { bind_address: '127.0.0.1', port: 0 } }));
  try {
    await assert.rejects(
      startServer(new RecordingDeps(), defaultServerOptions({ server: { bind_address: '127.0.0.1', port: first.port } })),
      ListenError,
    );
  } finally {
    await first.close({ drainTimeoutMs: 100 });
  }
});

/** DiskMonitor with an injected free-space source: thresholds, events, recovery, failures. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectingLogger } from '../logger.js';
import { DiskMonitor, diskThresholds, statfsFreeBytes } from './monitor.js';

const MIB = 1024 * 1024;

function setup(paths = ['/wal', '/meta', '/data']) {
  const free = new Map(paths.map((p) => [p, 10_000 * MIB]));
  const state = { readOnly: false };
  const log = collectingLogger();
  let events = 0;
  const monitor = new DiskMonitor({
    paths: [...paths, paths[0] as string],
    ...diskThresholds({ warn_threshold_mb: 1024, readonly_threshold_mb: 256 }),
    state,
    logger: log,
    statfs: async (p) => {
      const bytes = free.get(p);
      if (bytes === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return bytes;
    },
    onReadOnly: () => events++,
  });
  return { free, state, log, monitor, events: () => events };
}

describe('DiskMonitor', () => {
  it('watches each path once', () => {
    assert.deepEqual(setup().monitor.paths, ['/wal', '/meta', '/data']);
  });

  it('warns once when a path goes below warn_threshold_mb, without going read-only', async () => {
    const { free, state, log, monitor, events } = setup();
    free.set('/meta', 500 * MIB);
    await monitor.check();
    await monitor.check();
    assert.equal(state.readOnly, false);
    assert.equal(events(), 0);
    assert.equal(log.entries.filter((e) => e.msg === 'disk space low').length, 1);
    free.set('/meta', 5000 * MIB);
    await monitor.check();
    assert.ok(log.entries.some((e) => e.msg === 'disk space back above the warning threshold'));
  });

  it('goes read-only below readonly_threshold_mb on any path, once per episode, and recovers', async () => {
    const { free, state, monitor, events } = setup();
    free.set('/data', 100 * MIB);
    await monitor.check();
    assert.equal(state.readOnly, true);
    assert.equal(monitor.readOnly, true);
    assert.equal(events(), 1);
    await monitor.check();
    assert.equal(events(), 1);
    free.set('/data', 300 * MIB);
    await monitor.check();
    assert.equal(state.readOnly, false);
    free.set('/wal', 0);
    await monitor.check();
    assert.equal(state.readOnly, true);
    assert.equal(events(), 2);
  });

  it('ignores a path whose statfs fails (logs it) and samples the others', async () => {
    const { free, state, log, monitor } = setup();
    free.delete('/meta');
    await monitor.check();
    assert.equal(state.readOnly, false);
    assert.ok(log.entries.some((e) => e.level === 'warn' && e.msg === 'disk check: cannot read free space'));
    assert.deepEqual([...(await monitor.sample()).keys()], ['/wal', '/data']);
  });

  it('does not clear a read-only flag it did not set', async () => {
    const { state, monitor } = setup();
    state.readOnly = true;
    await monitor.check();
    assert.equal(state.readOnly, true);
  });

  it('start() checks at once and then on its timer until stop()', async () => {
    const { free, state, monitor, events } = setup();
    await monitor.start(5);
    assert.equal(state.readOnly, false);
    free.set('/wal', 0);
    for (let i = 0; i < 200 && !state.readOnly; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(state.readOnly, true);
    monitor.stop();
    free.set('/wal', 10_000 * MIB);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(state.readOnly, true, 'no check after stop()');
    assert.equal(events(), 1);
  });

  it('reads real free space with fs.statfs', async () => {
    assert.ok((await statfsFreeBytes('.')) > 0);
  });
});

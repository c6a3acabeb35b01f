/**
 * A full disk, as an edge device's SD card fills up: the WAL, meta and data directories on a
 * small tmpfs beside a filler file, written until the disk is full.
 * - with `[disk]` protection off, writing runs into ENOSPC for real: a write that cannot be made
 *   durable fails (never a 204) and leaves no temp file behind, every acknowledged point stays
 *   readable with its value, the server keeps answering, a SIGKILL and restart on the full disk
 *   succeed, and once the filler
 *   is removed writes succeed again with nothing lost;
 * - with it on, the node turns read-only before the disk is full (507, /health 503) and writable
 *   again once space is back.
 * Needs mount(2) for the tmpfs (root where the container allows it); skipped otherwise.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { http, removeDir, startServer, stopServer, type Server } from './harness.js';

const MIB = 1024 * 1024;

/** Leftover temp files of interrupted publishes anywhere under `dir`. */
function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'));
}
const LINES_PER_BODY = 2000;

/** A fresh tmpfs of `mib` MiB, or undefined where mount(2) is not allowed. */
function tmpfs(root: string, name: string, mib: number): string | undefined {
  const dir = join(root, name);
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return undefined;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    // not mounted (the test was skipped)
  }
}

const root = mkdtempSync(join(tmpdir(), 'strata-disk-full-'));
const probe = tmpfs(root, 'probe', 1);
if (probe) unmount(probe);
const skip = probe ? false : 'mount(2) of a tmpfs is not allowed here';

/** Points written so far: time (ms) -> value, for the bodies answered 204 and for the others. */
interface Written {
  acked: Map<number, number>;
  refused: Map<number, number>;
  statuses: number[];
  errors: string[];
}

let next = 0;
function body(): { text: string; points: Map<number, number> } {
  const points = new Map<number, number>();
  const lines: string[] = [];
  for (let i = 0; i < LINES_PER_BODY; i++, next++) {
    const t = Date.UTC(2024, 0, 1) + next * 1000;
    points.set(t, next * 7);
    lines.push(`m,s=a v=${next * 7}i ${t}`);
  }
  return { text: lines.join('\n'), points };
}

async function write(srv: Server, into: Written): Promise<number> {
  const b = body();
  const res = await http(srv.port, 'POST', '/write?db=full&precision=ms', b.text);
  into.statuses.push(res.status);
  const target = res.status === 204 ? into.acked : into.refused;
  for (const [t, v] of b.points) target.set(t, v);
  if (res.status !== 204) into.errors.push(res.body);
  return res.status;
}

/** Every acknowledged point with its value; nothing but acknowledged or refused points. */
async function checkStored(srv: Server, w: Written, when: string): Promise<void> {
  const res = await http(srv.port, 'GET', `/query?db=full&epoch=ms&q=${encodeURIComponent('SELECT v FROM m')}`, undefined, {}, 60_000);
  assert.equal(res.status, 200, `${when}: ${res.body.slice(0, 300)}`);
  const stored = new Map<number, number>();
  for (const [t, v] of (JSON.parse(res.body) as { results: { series?: { values: [number, number][] }[] }[] }).results[0]?.series?.[0]?.values ?? []) stored.set(t, v);
  let missing = 0;
  for (const [t, v] of w.acked) if (stored.get(t) !== v) missing++;
  let foreign = 0;
  for (const [t, v] of stored) if (w.acked.get(t) !== v && w.refused.get(t) !== v) foreign++;
  assert.equal(missing, 0, `${when}: ${missing} of ${w.acked.size} acknowledged points missing or changed\n${srv.log().slice(-2000)}`);
  assert.equal(foreign, 0, `${when}: ${foreign} stored points never written`);
}

describe('a full disk (tmpfs)', { skip, timeout: 180_000 }, () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  it('ENOSPC: writes fail without a 204, acknowledged points survive a kill on the full disk, writes resume once space is freed', async (t) => {
    const disk = tmpfs(root, 'enospc', 12)!;
    let srv: Server | undefined;
    try {
      writeFileSync(join(disk, 'filler'), Buffer.alloc(3 * MIB, 1));
      const env = { SERVICE__DISK__ENABLED: 'false', SERVICE__FLUSH__INTERVAL_SECS: '1' };
      srv = await startServer({ dir: disk, env });
      assert.equal((await http(srv.port, 'POST', `/query?q=${encodeURIComponent('CREATE DATABASE full')}`)).status, 200);
      const w: Written = { acked: new Map(), refused: new Map(), statuses: [], errors: [] };
      // Until the disk has refused a few bodies in a row (12 MiB hold a few hundred thousand points).
      for (let failedInRow = 0, i = 0; failedInRow < 5 && i < 3000; i++) failedInRow = (await write(srv, w)) === 204 ? 0 : failedInRow + 1;
      const refusals = w.statuses.filter((s) => s !== 204);
      assert.ok(w.acked.size > 10_000, `only ${w.acked.size} points acknowledged before the disk filled`);
      assert.ok(refusals.length >= 5, `the disk never filled: ${w.statuses.length} bodies all answered 204`);
      for (const s of refusals) assert.ok(s >= 500, `a write on a full disk answered ${s}`);
      for (const e of w.errors) assert.match(e, /^\{"error":".+"\}\n?$/);
      t.diagnostic(`${w.acked.size} points acknowledged, then ${refusals.length} bodies refused (${[...new Set(refusals)].join(', ')}): ${w.errors[0]?.trim()}`);
      await checkStored(srv, w, 'on the full disk');
      // A disk that stays full: more refused writes leave no files behind (each tried a WAL segment roll).
      for (let i = 0; i < 20; i++) assert.notEqual(await write(srv, w), 204);
      // A flush round (every second) may be writing its temp file right now: wait for it to end.
      for (let i = 0; i < 50 && tempFiles(disk).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(tempFiles(disk), []);

      await stopServer(srv, 'SIGKILL');
      srv = await startServer({ dir: disk, env });
      await checkStored(srv, w, 'after a SIGKILL and a restart on the full disk');

      rmSync(join(disk, 'filler'));
      // Space is back: the next writes are acknowledged (a flush may need a moment to catch up).
      let status = 0;
      for (let i = 0; i < 50 && status !== 204; i++) {
        status = await write(srv, w);
        if (status !== 204) await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(status, 204, `writes still refused after space was freed: ${w.errors.at(-1)}`);
      for (let i = 0; i < 5; i++) assert.equal(await write(srv, w), 204);
      await checkStored(srv, w, 'after space was freed');
      await stopServer(srv);
      srv = await startServer({ dir: disk, env });
      await checkStored(srv, w, 'after a clean restart');
    } finally {
      if (srv) await stopServer(srv, 'SIGKILL');
      unmount(disk);
    }
  });

  it('[disk] protection turns the node read-only before the disk is full, and writable again', async () => {
    const disk = tmpfs(root, 'readonly', 16)!;
    let srv: Server | undefined;
    try {
      writeFileSync(join(disk, 'filler'), Buffer.alloc(6 * MIB, 1));
      srv = await startServer({
        dir: disk,
        env: { SERVICE__DISK__CHECK_INTERVAL_SECS: '1', SERVICE__DISK__READONLY_THRESHOLD_MB: '5', SERVICE__DISK__WARN_THRESHOLD_MB: '8' },
      });
      assert.equal((await http(srv.port, 'POST', `/query?q=${encodeURIComponent('CREATE DATABASE full')}`)).status, 200);
      const w: Written = { acked: new Map(), refused: new Map(), statuses: [], errors: [] };
      let status = 204;
      for (let i = 0; i < 400 && status === 204; i++) {
        status = await write(srv, w);
        await new Promise((r) => setTimeout(r, 20)); // the check runs every second
      }
      assert.equal(status, 507, `no read-only mode: ${w.statuses.slice(-5).join(',')} ${w.errors.at(-1) ?? ''}`);
      assert.equal((await http(srv.port, 'GET', '/health')).status, 503);
      await checkStored(srv, w, 'read-only');

      rmSync(join(disk, 'filler'));
      for (let i = 0; i < 40 && status !== 204; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = await write(srv, w);
      }
      assert.equal(status, 204, 'still read-only after space was freed');
      assert.equal((await http(srv.port, 'GET', '/health')).status, 200);
      await checkStored(srv, w, 'writable again');
    } finally {
      if (srv) await stopServer(srv, 'SIGKILL');
      unmount(disk);
    }
  });
});

// The probe directory is left empty under root, which after() removes; a skipped run removes it here.
if (skip) removeDir(root);

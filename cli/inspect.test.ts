/**
 * `strata inspect` on the files of a real server: clean files pass (exit 0); a flipped byte
 * inside a TSM block and a damaged WAL record are both reported with file and offset (exit 2).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { dirsUnder, query, runStrata, startStrata, toolEnv, write } from './tool-test-support.js';

function findFiles(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...findFiles(p, suffix));
    else if (e.name.endsWith(suffix)) out.push(p);
  }
  return out.sort();
}

function flipByte(path: string, offset: number): void {
  const fd = openSync(path, 'r+');
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, offset);
    b[0] = b[0]! ^ 0xff;
    writeSync(fd, b, 0, 1, offset);
  } finally {
    closeSync(fd);
  }
}

describe('strata inspect', { timeout: 60_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'strata-inspect-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('passes clean files and reports a flipped TSM byte and a damaged WAL record', async () => {
    const dirs = dirsUnder(join(root, 'x'));
    const lines = (from: number) => Array.from({ length: 500 }, (_, j) => `m,h=${j % 4} v=${from + j} ${1_600_000_000_000 + from + j}000000`).join('\n');
    // One TSM file: a graceful stop flushes the first body.
    const first = await startStrata(dirs);
    await query(first.port, 'CREATE DATABASE i');
    assert.equal(await write(first.port, 'i', lines(0)), 204);
    assert.equal(await first.stop(), 0);
    // Three WAL records: no flush timer can fire before the SIGKILL (a timer did on a loaded machine).
    const server = await startStrata(dirs, { SERVICE__FLUSH__INTERVAL_SECS: '3600' });
    for (let k = 1; k <= 3; k++) assert.equal(await write(server.port, 'i', lines(k * 1000)), 204);
    server.child.kill('SIGKILL'); // keep the WAL records: no final flush
    await new Promise((r) => server.child.once('exit', r));

    const clean = await runStrata(['inspect'], toolEnv(dirs, 0));
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /shard i\/autogen\/\d+_\d+: 1 files, 4 series, \d+ blocks, 500 points/);
    assert.match(clean.stdout, /3 entries/);
    assert.match(clean.stdout, /series log .*series\.log: \d+ records, \d+ bytes: ok/);
    assert.match(clean.stdout, /no damage found/);

    const tsm = findFiles(dirs.data, '.tsm')[0]!;
    flipByte(tsm, 8 + 4 + 3); // header, block checksum, then inside the first block's payload
    const wal = findFiles(dirs.wal, '.wal').find((f) => statSync(f).size > 16 + 28)!;
    flipByte(wal, 16 + 28 + 20); // inside the body of the first record

    const damaged = await runStrata(['inspect', '--json'], toolEnv(dirs, 0));
    assert.equal(damaged.code, 2, damaged.stderr);
    const report = JSON.parse(damaged.stdout) as {
      problems: number;
      shards: { files: { file: string; problems: { offset: number; reason: string }[] }[] }[];
      wal: { file: string; entries: number; problems: { offset: number; reason: string; torn: boolean }[] }[];
    };
    assert.equal(report.problems, 2);
    const tsmReport = report.shards[0]!.files[0]!;
    assert.equal(tsmReport.file, tsm);
    assert.equal(tsmReport.problems[0]!.offset, 8);
    assert.match(tsmReport.problems[0]!.reason, /block checksum mismatch/);
    const walReport = report.wal.find((w) => w.file === wal)!;
    assert.equal(walReport.entries, 2);
    assert.equal(walReport.problems[0]!.offset, 16);
    assert.equal(walReport.problems[0]!.torn, false);

    const text = await runStrata(['inspect', '--data', dirs.data, '--wal', dirs.wal], toolEnv(dirsUnder(join(root, 'elsewhere')), 0));
    assert.equal(text.code, 2);
    assert.match(text.stdout, /DAMAGED \(1\)[\s\S]*offset 8: .*block checksum mismatch/);
    assert.match(text.stdout, /\.wal: 2 entries, .*DAMAGED \(1\)\n\s+offset 16: /);
    assert.match(text.stdout, /2 problem\(s\) found/);
  });
});

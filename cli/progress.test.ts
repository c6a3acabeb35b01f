/** Progress output (TTY bar vs plain lines), import line joining and raw flag values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endsInsideString } from './import.js';
import { createProgress, formatAmount } from './progress.js';
import { rawFlag } from './tools.js';

function recorder(tty: boolean) {
  let t = 0;
  const out: string[] = [];
  const p = createProgress({ tty, unit: 'bytes', write: (s) => void out.push(s), now: () => t });
  return { p, out, advance: (ms: number) => (t += ms) };
}

test('plain progress: a line per phase, throttled updates, a summary', () => {
  const { p, out, advance } = recorder(false);
  p.phase('copy', 2048);
  p.update(1024);
  p.update(1500); // within 2 s: dropped
  advance(2500);
  p.update(2048);
  p.done('done: 2 files');
  assert.deepEqual(out, ['copy...\n', 'copy: 1.0 KiB/2.0 KiB (50%)\n', 'copy: 2.0 KiB/2.0 KiB (100%)\n', 'done: 2 files\n']);
});

test('TTY progress: a bar redrawn in place, finished bar always drawn, newline before the summary', () => {
  const { p, out } = recorder(true);
  p.phase('verify', 100);
  p.update(50);
  p.update(100);
  p.done('ok');
  assert.equal(out.length, 4);
  assert.match(out[0]!, /^\r\x1b\[2Kverify\s+\[#{15}-{15}\]\s+50% 50 B\/100 B$/);
  assert.match(out[1]!, /\[#{30}\] 100%/);
  assert.deepEqual(out.slice(2), ['\n', 'ok\n']);
});

test('formatAmount', () => {
  assert.equal(formatAmount(0, 'bytes'), '0 B');
  assert.equal(formatAmount(3 * 1024 * 1024, 'bytes'), '3.0 MiB');
  assert.equal(formatAmount(12, 'lines'), '12 lines');
});

test('endsInsideString: only quotes in the field section count, escapes respected', () => {
  assert.equal(endsInsideString('m f="open'), true);
  assert.equal(endsInsideString('m f="closed" 1'), false);
  assert.equal(endsInsideString('m f="esc \\" still open'), true);
  assert.equal(endsInsideString('m f="back\\\\" 1'), false);
  assert.equal(endsInsideString('q"uote,t\\ ag="x f=1 1'), false, 'quotes in the series key are literal');
});

test('rawFlag keeps the text cac would turn into a number', () => {
  const argv = ['node', 'main', 'export', '--end', '1600000000000000003', '--database=007'];
  assert.equal(rawFlag('end', argv), '1600000000000000003');
  assert.equal(rawFlag('database', argv), '007');
  assert.equal(rawFlag('start', argv), undefined);
});

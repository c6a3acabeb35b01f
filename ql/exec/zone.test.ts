/** tz('Local') is the process's own zone, as Go's time.LoadLocation("Local") (TZ, else /etc/localtime). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

const zoneModule = new URL('./zone.js', import.meta.url).href;

function localOffsets(tz: string): number[] {
  const script = `import { zoneOffsetSec } from '${zoneModule}';
    console.log(JSON.stringify([zoneOffsetSec('Local', 1704067200), zoneOffsetSec('Local', 1719792000)]));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TZ: tz }, encoding: 'utf8' })) as number[];
}

test("tz('Local') follows the process's zone, DST included", () => {
  assert.deepEqual(localOffsets('Europe/Berlin'), [3600, 7200]); // 2024-01-01, 2024-07-01
  assert.deepEqual(localOffsets('Asia/Kolkata'), [19800, 19800]);
  assert.deepEqual(localOffsets('UTC'), [0, 0]);
});

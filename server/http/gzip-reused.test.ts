/**
 * ReusedGzip gives gzipSync's bytes, body after body through one deflate state: each answer is
 * a whole gzip member whatever came before it (deflateReset between them), including bodies
 * whose compressed size exceeds one output round and bodies that do not compress at all.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { ReusedGzip } from './gzip-reused.js';

function jsonAnswer(rows: number, seed: number): string {
  const values = Array.from({ length: rows }, (_, i) => [`2024-03-09T00:${String(i % 60).padStart(2, '0')}:00Z`, ((i * 7919 + seed) % 1000) / 7]);
  return JSON.stringify({ results: [{ statement_id: 0, series: [{ name: 'cpu', columns: ['time', 'max'], values }] }] });
}

describe('ReusedGzip', () => {
  for (const level of [constants.Z_DEFAULT_COMPRESSION, 1, 9]) {
    it(`level ${level}: the same bytes as gzipSync for every body in a row, each inflating alone`, () => {
      const gz = new ReusedGzip(level);
      const bodies: (string | Uint8Array)[] = [
        '',
        'x',
        jsonAnswer(60, 1),
        'ünïcode ✓ '.repeat(500),
        randomBytes(200 * 1024), // incompressible: more output than one 64 KiB round
        jsonAnswer(5000, 2), // ~250 KB of text
        jsonAnswer(60, 3),
        new Uint8Array(0),
        Buffer.from(jsonAnswer(10, 4)),
      ];
      for (let round = 0; round < 3; round++) {
        for (const body of bodies) {
          const zipped = gz.compress(body);
          assert.deepEqual(zipped, gzipSync(body, { level }));
          assert.deepEqual(gunzipSync(zipped), typeof body === 'string' ? Buffer.from(body) : Buffer.from(body));
        }
      }
      assert.equal(gz.reusing, true, 'the kept deflate state was used, not the gzipSync fallback');
    });
  }
});

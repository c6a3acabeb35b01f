/**
 * Property test of the body reader over real loopback HTTP: any body, split into any chunks,
 * sent with Content-Length or chunked, plain or gzip, reaches the engine byte for byte when it
 * fits the cap (raw and decompressed), and is a 413 otherwise. RecordingDeps stands in for the
 * engine (HTTP layer only).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../testing.js';

const CAP = 4096;

function send(port: number, pieces: Buffer[], headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/write?db=d', headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    for (const piece of pieces) req.write(piece);
    req.end();
  });
}

function split(body: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let last = 0;
  for (const p of [...points, body.length]) {
    if (p > last) pieces.push(body.subarray(last, p));
    last = Math.max(last, p);
  }
  return pieces;
}

describe('request body (property)', { timeout: 60_000 }, () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer({ max_body_size_bytes: CAP });
  });
  after(() => srv.close());

  it('delivers every body that fits, byte for byte, and 413s the rest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2 * CAP }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        async (bytes, cuts, gzip, chunked) => {
          const plain = Buffer.from(bytes);
          const wire = gzip ? gzipSync(plain) : plain;
          const headers: Record<string, string> = gzip ? { 'Content-Encoding': 'gzip' } : {};
          if (!chunked) headers['Content-Length'] = String(wire.length);
          srv.deps.writes.length = 0;
          const status = await send(srv.port, split(wire, cuts), headers);
          const fits = wire.length <= CAP && plain.length <= CAP;
          assert.equal(status, fits ? 204 : 413);
          if (fits) assert.ok(Buffer.from(srv.deps.writes[0]!.body).equals(plain));
          else assert.equal(srv.deps.writes.length, 0);
        },
      ),
      { numRuns: 60 },
    );
  });
});

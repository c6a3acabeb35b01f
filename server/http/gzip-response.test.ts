/**
 * GzipBodyStream against an in-memory sink: every flushed write inflates on its own, the body
 * ends once, and a client that goes away (destroy) releases a producer waiting on a write and
 * ends nothing: the zlib stream is freed, not left for GC with a pending flush.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { gunzipSync, inflateRawSync, constants } from 'node:zlib';
import { GzipBodyStream, type CompressedSink } from './gzip-response.js';

class MemorySink implements CompressedSink {
  readonly chunks: Buffer[] = [];
  ended = 0;
  /** While set, writes wait for release() (a client not reading). */
  stalled = false;
  #waiting: (() => void)[] = [];
  write(chunk: Uint8Array): Promise<void> {
    this.chunks.push(Buffer.from(chunk));
    if (!this.stalled) return Promise.resolve();
    return new Promise((ok) => this.#waiting.push(ok));
  }
  end(): void {
    this.ended++;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('GzipBodyStream', () => {
  it('each write is flushed: the bytes so far inflate to the text so far; end() ends the body once', async () => {
    const sink = new MemorySink();
    const gz = new GzipBodyStream(sink);
    let text = '';
    for (let i = 0; i < 5; i++) {
      const piece = `{"results":[{"statement_id":${i},"series":[{"name":"m","values":[[${i},"${'x'.repeat(i * 300)}"]]}]}]}\n`;
      await gz.write(piece);
      text += piece;
      await tick();
      // The gzip header is 10 bytes; the rest so far is a raw deflate stream cut at a sync flush.
      const soFar = inflateRawSync(sink.bytes().subarray(10), { finishFlush: constants.Z_SYNC_FLUSH }).toString();
      assert.equal(soFar, text);
    }
    gz.end();
    gz.end();
    // zlib finishes on its thread pool: on a loaded machine that takes more than one tick.
    for (let i = 0; i < 100 && sink.ended === 0; i++) await tick();
    await tick();
    assert.equal(sink.ended, 1);
    assert.equal(gunzipSync(sink.bytes()).toString(), text);
  });

  it('destroy() while the client stalls: the waiting write resolves, nothing more is written, the body is not ended', async () => {
    const sink = new MemorySink();
    const gz = new GzipBodyStream(sink);
    await gz.write('first\n');
    await tick();
    sink.stalled = true;
    // Enough incompressible input that zlib's output waits for the stalled sink.
    const noise = randomBytes(1 << 20);
    let released = false;
    const pending = gz.write(noise).then(() => (released = true));
    await tick();
    assert.equal(released, false, 'the write waits for the stalled client');
    gz.destroy();
    const outcome = await Promise.race([pending.then(() => 'released'), new Promise((r) => setTimeout(() => r('still waiting'), 2000))]);
    assert.equal(outcome, 'released', 'a producer waiting on a write when the client left is released');
    const written = sink.chunks.length;
    await gz.write('after\n');
    gz.end();
    await tick();
    assert.equal(sink.chunks.length, written, 'nothing written after destroy');
    assert.equal(sink.ended, 0, 'a cut body is not ended as if whole');
  });
});

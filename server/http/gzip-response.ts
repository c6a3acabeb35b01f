/**
 * gzip-compressed response bodies, for a request whose Accept-Encoding allows them
 * (accept-encoding.ts) while `[server] gzip_responses` is on. respond.ts decides per answer:
 * only 200 answers with a body are compressed, as in 1.x (its gzip writer sets
 * Content-Encoding only on a 200; errors, 204s and HEADs go out as they are).
 *
 * - A buffered body of at least MIN_GZIP_BYTES and at most SYNC_GZIP_MAX_BYTES is compressed
 *   at once on the event loop, through one deflate state reused from answer to answer
 *   (gzip-reused.ts), and keeps its Content-Length.
 * - A streamed body (chunked=true, a large unchunked answer, a buffered body above
 *   SYNC_GZIP_MAX_BYTES) goes through one zlib stream (GzipBodyStream): zlib runs on libuv's
 *   thread pool, every write is followed by a sync flush, so the client can inflate each 1.x
 *   chunk as soon as it is written, and a write resolves only once the compressed bytes were
 *   accepted by the connection, so a slow client still slows the producer (memory stays bounded
 *   by one piece).
 */
import { constants, createGzip, type Gzip } from 'node:zlib';
import { ReusedGzip } from './gzip-reused.js';

/**
 * Bodies below this go out uncompressed. gzip costs CPU (~14 µs for 1-2 KiB at level 6, with
 * the deflate state kept) and adds 18 bytes of framing; a body under 1 KiB plus Strata's ~350
 * bytes of headers fits in one TCP segment (MSS 1460) either way, so compressing it saves no
 * packet and no round trip (perf/QUERY.md, session g20).
 */
export const MIN_GZIP_BYTES = 1024;

/**
 * Buffered bodies above this are compressed on the thread pool as a stream, not on the event
 * loop: level 6 runs at ~35-100 MB/s here, so 64 KiB holds the loop for at most ~1-2 ms.
 */
export const SYNC_GZIP_MAX_BYTES = 64 * 1024;

/**
 * zlib's default level, as Go's gzip.NewWriter that 1.x uses. Level 1 costs ~1/3 of the CPU and
 * sends ~20-25 % more bytes; the feature is for slow links (perf/QUERY.md, session g20).
 */
const LEVEL = constants.Z_DEFAULT_COMPRESSION;

/** Headers of every compressed answer: caches must not hand it to a client that did not ask. */
export const GZIP_HEADERS: Readonly<Record<string, string>> = { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' };

/** The event loop compresses one body at a time, so one deflate state serves them all. */
const buffered = new ReusedGzip(LEVEL);

export function gzipBody(body: string | Uint8Array): Buffer {
  return buffered.compress(body);
}

/** Where a compressed stream's bytes go: the response's chunked body. */
export interface CompressedSink {
  /** Resolves once the connection took the bytes (or the client is gone). */
  write(chunk: Uint8Array): Promise<void>;
  /** Ends the body (called once, after the last write resolved). */
  end(): void;
}

/** One streamed response body through gzip. `end()` or `destroy()` exactly once. */
export class GzipBodyStream {
  readonly #gz: Gzip = createGzip({ level: LEVEL });
  #closed = false;
  /** Set by destroy() (the iterator below destroys the stream itself once it ended). */
  #cancelled = false;
  /**
   * Writes waiting for their flush. Node's zlib never calls back a write it holds while its
   * output waits for a reader (a stalled client) once the stream is destroyed, nor the flush
   * queued behind it: destroy() releases them, or the producer (a query) would wait forever.
   */
  readonly #waiting = new Set<() => void>();

  constructor(sink: CompressedSink) {
    // An error here is the stream being destroyed (client gone, answer cut): nothing to report.
    this.#gz.on('error', () => undefined);
    void this.#pump(sink);
  }

  /**
   * Moves compressed bytes to the connection one at a time: while a write waits for the client,
   * nothing is read from zlib, its output buffer fills and it stops taking input, which holds
   * back the flush that the producer's write() waits for.
   */
  async #pump(sink: CompressedSink): Promise<void> {
    try {
      for await (const chunk of this.#gz as AsyncIterable<Buffer>) await sink.write(chunk);
    } catch {
      return; // destroyed
    }
    if (!this.#cancelled) sink.end();
  }

  /** Compresses `text` and flushes it; resolves once its bytes are on their way to the client. */
  write(text: string | Uint8Array): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#waiting.delete(done);
        resolve();
      };
      this.#waiting.add(done);
      this.#gz.write(text);
      this.#gz.flush(constants.Z_SYNC_FLUSH, done);
    });
  }

  /** Ends the gzip member; the body ends once its last bytes were written. */
  end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#gz.end();
  }

  /**
   * Client gone or answer cut: zlib's memory (~300 KB a stream) is freed now and nothing more is
   * compressed for nobody (without it, the rest of the answer the executor makes before it sees
   * the abort would still be compressed and dropped).
   */
  destroy(): void {
    this.#closed = true;
    this.#cancelled = true;
    this.#gz.destroy();
    for (const done of [...this.#waiting]) done();
  }
}

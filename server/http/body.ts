/**
 * Request body reader with a size cap and streaming gzip.
 *
 * Call `readBody` synchronously inside the uWS handler (it registers `onData`; Reply already
 * registered `onAborted`). The cap applies to the bytes on the wire AND to the decompressed
 * bytes: gzip input is inflated chunk by chunk as it arrives and the inflater is destroyed as
 * soon as its output passes the cap, so a small bomb never allocates more than cap + one chunk.
 *
 * uWS itself drops a connection that sends nothing for ~10 s (its fixed HTTP idle timeout), so
 * with request_timeout_secs above 10 a fully stalled client is disconnected without a 408;
 * a client that keeps trickling bytes gets the 408 at request_timeout_secs.
 *
 * Rejections: PayloadTooLargeError (413), BadRequestError (400, corrupt gzip),
 * RequestTimeoutError (408, body incomplete after `timeoutMs`), ClientAbortedError.
 */
import { createGunzip, type Gunzip } from 'node:zlib';
import type { BufferRecycler } from '../../engine/index.js';
import type { Reply } from './respond.js';
import { BadRequestError, ClientAbortedError, PayloadTooLargeError, RequestTimeoutError } from '../errors.js';

export interface BodyOptions {
  /** Cap for raw and decompressed bytes (server.max_body_size_bytes). */
  readonly maxBytes: number;
  /** Inflate the body (request had `Content-Encoding: gzip`). */
  readonly gzip: boolean;
  /** Time allowed for the whole body to arrive (server.request_timeout_secs). */
  readonly timeoutMs: number;
  /** The Content-Length header, when present: lets a too-large body fail before it is read. */
  readonly declaredLength?: number | undefined;
  /**
   * Where a large body with a Content-Length gets its buffer; the caller hands it back with
   * `buffers.release(body)` once nothing uses the body any more.
   */
  readonly buffers?: BufferRecycler | undefined;
}

/** Smaller bodies come from Node's buffer pool or are cheap enough to allocate. */
const RECYCLE_MIN_BYTES = 64 * 1024;

/** Content-Length as a number, or undefined when absent or malformed (chunked bodies). */
export function declaredLength(header: string): number | undefined {
  return /^\d+$/.test(header) ? Number(header) : undefined;
}

/** Accumulates chunks up to a cap; copies each chunk exactly once. */
class Collector {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  /** With a known final size (Content-Length) chunks are copied straight into one buffer. */
  #target: Buffer | undefined;

  constructor(
    private readonly max: number,
    expected?: number,
    buffers?: BufferRecycler,
  ) {
    if (expected !== undefined && expected > 0 && expected <= max) {
      this.#target = buffers && expected >= RECYCLE_MIN_BYTES ? buffers.take(expected) : Buffer.allocUnsafe(expected);
    }
  }

  /** Copies `chunk` (uWS reuses its memory after the callback). False once past the cap. */
  push(chunk: Uint8Array, owned = false): boolean {
    const start = this.#bytes;
    this.#bytes += chunk.byteLength;
    if (this.#bytes > this.max) return false;
    if (this.#target && this.#bytes > this.#target.byteLength) {
      // More than Content-Length announced (HTTP framing prevents it): fall back to chunks.
      this.#chunks.push(this.#target.subarray(0, start));
      this.#target = undefined;
    }
    if (this.#target) this.#target.set(chunk, start);
    else this.#chunks.push(owned ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.from(chunk));
    return true;
  }

  result(): Uint8Array {
    if (this.#target) return this.#target.subarray(0, this.#bytes);
    return this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#bytes);
  }
}

export function readBody(reply: Reply, opts: BodyOptions): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    let settled = false;
    let wireBytes = 0;
    const out = new Collector(opts.maxBytes, opts.gzip ? undefined : opts.declaredLength, opts.buffers);
    let gunzip: Gunzip | undefined;

    const settle = (err: Error | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      gunzip?.destroy();
      if (err) reject(err);
      else resolve(out.result());
    };
    const timer = setTimeout(() => settle(new RequestTimeoutError()), opts.timeoutMs);
    timer.unref();
    reply.onAbort(() => settle(new ClientAbortedError()));
    if ((opts.declaredLength ?? 0) > opts.maxBytes) return settle(new PayloadTooLargeError());

    if (opts.gzip) {
      gunzip = createGunzip();
      gunzip.on('data', (chunk: Buffer) => {
        if (!settled && !out.push(chunk, true)) settle(new PayloadTooLargeError());
      });
      gunzip.on('error', (err: Error) => settle(new BadRequestError(gzipErrorText(err), { cause: err })));
      gunzip.on('end', () => settle(undefined));
    }

    reply.raw.onData((chunk, isLast) => {
      if (settled) return;
      wireBytes += chunk.byteLength;
      if (wireBytes > opts.maxBytes) return settle(new PayloadTooLargeError());
      if (!gunzip) {
        out.push(new Uint8Array(chunk));
        if (isLast) settle(undefined);
        return;
      }
      // uWS reuses the ArrayBuffer after this callback returns: the inflater gets a copy.
      if (chunk.byteLength > 0) gunzip.write(Buffer.from(new Uint8Array(chunk)));
      if (isLast) {
        // An empty body has no gzip header: Go's gzip.NewReader fails with io.EOF, 1.x's 400 `EOF`.
        if (wireBytes === 0) settle(new BadRequestError('EOF'));
        else gunzip.end();
      }
    });
  });
}

/**
 * The text of Go's gzip reader for what zlib reports (1.x answers a corrupt gzip body with it):
 * a bad magic number, a body cut short, a wrong CRC or size. Other deflate corruption keeps
 * zlib's own text (Go's names a byte offset zlib does not give).
 */
function gzipErrorText(err: Error): string {
  switch (err.message) {
    case 'incorrect header check':
      return 'gzip: invalid header';
    case 'unexpected end of file':
      return 'unexpected EOF';
    case 'incorrect data check':
    case 'incorrect length check':
      return 'gzip: invalid checksum';
    default:
      return `unable to decompress gzip body: ${err.message}`;
  }
}

/** True when the request declared a gzip body (`Content-Encoding: gzip`, any case). */
export function isGzip(contentEncoding: string): boolean {
  return contentEncoding.trim().toLowerCase() === 'gzip';
}

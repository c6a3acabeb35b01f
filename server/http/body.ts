/**
 * Request body reader with a size cap and streaming gzip.
 *
 * Call `readBody` synchronously inside the uWS handler (it registers `onData`; Reply already
 * registered `onAborted`). The cap applies to the bytes on the wire AND to the decompressed
 * bytes: gzip input is inflated chunk by chunk as it arrives and the inflater is destroyed as
 * soon as its output passes the cap, so a small bomb never allocates more than cap + one chunk.
 *
 * Rejections: PayloadTooLargeError (413), BadRequestError (400, corrupt gzip),
 * RequestTimeoutError (408, body incomplete after `timeoutMs`), ClientAbortedError.
 */
import { createGunzip, type Gunzip } from 'node:zlib';
import type { Reply } from './respond.js';
import { BadRequestError, ClientAbortedError, PayloadTooLargeError, RequestTimeoutError } from '../errors.js';

export interface BodyOptions {
  /** Cap for raw and decompressed bytes (server.max_body_size_bytes). */
  readonly maxBytes: number;
  /** Inflate the body (request had `Content-Encoding: gzip`). */
  readonly gzip: boolean;
  /** Time allowed for the whole body to arrive (server.request_timeout_secs). */
  readonly timeoutMs: number;
}

class Collector {
  readonly chunks: Buffer[] = [];
  bytes = 0;
  /** Returns false when the cap is exceeded. */
  push(chunk: Buffer, max: number): boolean {
    this.bytes += chunk.byteLength;
    if (this.bytes > max) return false;
    this.chunks.push(chunk);
    return true;
  }
  result(): Uint8Array {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.bytes);
  }
}

export function readBody(reply: Reply, opts: BodyOptions): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    let settled = false;
    let wireBytes = 0;
    const out = new Collector();
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

    if (opts.gzip) {
      gunzip = createGunzip();
      gunzip.on('data', (chunk: Buffer) => {
        if (!settled && !out.push(chunk, opts.maxBytes)) settle(new PayloadTooLargeError());
      });
      gunzip.on('error', (err: Error) =>
        settle(new BadRequestError(`unable to decompress gzip body: ${err.message}`, { cause: err })),
      );
      gunzip.on('end', () => settle(undefined));
    }

    reply.raw.onData((chunk, isLast) => {
      if (settled) return;
      wireBytes += chunk.byteLength;
      if (wireBytes > opts.maxBytes) return settle(new PayloadTooLargeError());
      // uWS reuses the ArrayBuffer after this callback returns: copy it.
      const copy = Buffer.from(new Uint8Array(chunk).slice());
      if (!gunzip) {
        out.push(copy, opts.maxBytes);
        if (isLast) settle(undefined);
        return;
      }
      if (copy.byteLength > 0) gunzip.write(copy);
      if (isLast) {
        if (wireBytes === 0) settle(undefined); // empty body: nothing to inflate
        else gunzip.end();
      }
    });
  });
}

/** True when the request declared a gzip body (`Content-Encoding: gzip`, any case). */
export function isGzip(contentEncoding: string): boolean {
  return contentEncoding.trim().toLowerCase() === 'gzip';
}

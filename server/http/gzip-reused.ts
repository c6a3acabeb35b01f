/**
 * One-shot gzip of a buffered answer through a deflate state kept from answer to answer.
 *
 * `gzipSync` builds a zlib stream object and a native deflate state for every call and tears
 * both down again: for a dashboard's 1-60 KiB answer that set-up costs about as much as the
 * compression itself (perf/QUERY.md, session 31). Node offers no public way to reset a one-shot
 * compressor (its sync path closes the handle after Z_FINISH), so this drives the stream's
 * native handle the way Node's own sync path does, and ends each answer with `reset()`
 * (zlib's deflateReset: the window and hash tables stay allocated). The bytes are the ones
 * `gzipSync` produces at the same level (tested).
 *
 * Node's internals are checked once: if a Node version lacks them, or the handle ever reports
 * an error, every later body goes through `gzipSync`, which is slower but always right.
 */
import { constants, createGzip, gzipSync, type Gzip } from 'node:zlib';

/** The parts of Node's zlib stream this drives (lib/zlib.js: processChunkSync). */
interface NativeDeflate {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
}

interface StreamInternals {
  readonly _handle?: NativeDeflate | null;
  /** [avail_out, avail_in] after each writeSync. */
  readonly _writeState?: Uint32Array;
}

/** Output is written here and copied out; an answer that compresses to more takes several rounds. */
const OUT_BYTES = 64 * 1024;

export class ReusedGzip {
  readonly #level: number;
  #stream: Gzip | null = null;
  #handle: NativeDeflate | null = null;
  #state: Uint32Array | null = null;
  #out: Buffer | null = null;
  /** Set once the internals were missing or failed: gzipSync from then on. */
  #fallback = false;

  constructor(level: number) {
    this.#level = level;
  }

  /** True while bodies go through the kept deflate state (false before the first, or after a fallback). */
  get reusing(): boolean {
    return !this.#fallback && this.#handle !== null;
  }

  compress(body: string | Uint8Array): Buffer {
    if (this.#fallback || !this.#open()) return gzipSync(body, { level: this.#level });
    const input = typeof body === 'string' ? Buffer.from(body) : body;
    try {
      return this.#deflate(input);
    } catch {
      // An error leaves the state unknown: drop it and never reuse a handle again.
      this.#fallback = true;
      this.#stream?.destroy();
      this.#stream = null;
      return gzipSync(input, { level: this.#level });
    }
  }

  #open(): boolean {
    if (this.#handle !== null) return true;
    const stream = createGzip({ level: this.#level });
    const inner = stream as unknown as StreamInternals;
    const handle = inner._handle;
    const state = inner._writeState;
    if (handle == null || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) {
      this.#fallback = true;
      stream.destroy();
      return false;
    }
    // The handle reports an error by destroying the stream (at once) and emitting 'error' (on
    // the next tick): #deflate checks the first, this keeps the second from being unhandled.
    stream.on('error', () => undefined);
    this.#stream = stream;
    this.#handle = handle;
    this.#state = state;
    this.#out = Buffer.allocUnsafe(OUT_BYTES);
    return true;
  }

  #deflate(input: Uint8Array): Buffer {
    const handle = this.#handle as NativeDeflate;
    const state = this.#state as Uint32Array;
    const out = this.#out as Buffer;
    const parts: Buffer[] = [];
    let inOff = 0;
    let inLen = input.byteLength;
    for (;;) {
      handle.writeSync(constants.Z_FINISH, input, inOff, inLen, out, 0, OUT_BYTES);
      if ((this.#stream as Gzip).destroyed) throw new Error('zlib reported an error');
      const availOut = state[0] as number;
      const availIn = state[1] as number;
      const produced = OUT_BYTES - availOut;
      if (produced > 0) parts.push(Buffer.from(out.subarray(0, produced)));
      inOff += inLen - availIn;
      inLen = availIn;
      // Z_FINISH left output room: the gzip member is complete.
      if (availOut !== 0) break;
    }
    handle.reset();
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}

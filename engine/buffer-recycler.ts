/**
 * A few large ArrayBuffers kept for reuse. Why: a buffer that leaves the V8 heap's view (a
 * request body, body copies moved to a worker and back) is freed only at the next garbage
 * collection, and a thread that allocates little on the heap collects rarely: V8 then lets
 * tens of MiB of dead buffers accumulate per thread before it reacts. Reusing a handful of
 * buffers keeps that memory out of the process's RSS.
 *
 * Only buffers this recycler handed out are taken back (a Buffer may be a slice of Node's
 * shared pool, which must never be reused).
 */
const KEEP = 4;

export class BufferRecycler {
  private readonly free: ArrayBuffer[] = [];
  private readonly mine = new WeakSet<ArrayBuffer>();

  /** `n` bytes (content undefined), in a reused buffer when one fits (and is not far larger). */
  take(n: number): Buffer {
    const at = this.free.findIndex((b) => b.byteLength >= n && b.byteLength <= 2 * n + 4096);
    const buf = at >= 0 ? this.free.splice(at, 1)[0]! : new ArrayBuffer(n);
    this.mine.add(buf);
    return Buffer.from(buf, 0, n);
  }

  /** A copy of `src` (see take). */
  copyOf(src: Uint8Array): Buffer {
    const out = this.take(src.byteLength);
    out.set(src);
    return out;
  }

  /** Takes back the buffer under `bytes` for later use: the caller must not touch `bytes` again. */
  release(bytes: Uint8Array | ArrayBuffer): void {
    const buf = bytes instanceof ArrayBuffer ? bytes : bytes.buffer;
    if (!(buf instanceof ArrayBuffer) || buf.byteLength === 0 || !this.mine.has(buf) || this.free.includes(buf)) return;
    if (this.free.length >= KEEP) this.free.shift();
    this.free.push(buf);
  }
}
